// The embedded proxy gateway of a test shop: three distinct free ports on loopback and the
// environment that opens its listeners there (usage written every second). The HTTPS
// port's certificate is made by the gateway in the shop's data dir (self-signed).
import { freePort } from "./pocketbase.ts";

export interface GatewayPorts {
  http: number;
  socks: number;
  https: number;
  /** GATEWAY_HOST, GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT, GATEWAY_HTTPS_PORT and GATEWAY_FLUSH_SECONDS. */
  env: Record<string, string>;
}

export async function gatewayPorts(): Promise<GatewayPorts> {
  const taken: number[] = [];
  while (taken.length < 3) {
    const port = await freePort();
    if (!taken.includes(port)) taken.push(port);
  }
  const [http, socks, https] = taken as [number, number, number];
  return {
    http,
    socks,
    https,
    env: {
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(http),
      GATEWAY_SOCKS_PORT: String(socks),
      GATEWAY_HTTPS_PORT: String(https),
      GATEWAY_FLUSH_SECONDS: "1",
    },
  };
}
