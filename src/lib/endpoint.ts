/** "host:port"; an IPv6 host in brackets ("[2001:db8::1]:8080"), as URLs and proxy tools write it. */
export function endpoint(proxy: { host: string; port: number }): string {
  return `${proxy.host.includes(":") ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
}
