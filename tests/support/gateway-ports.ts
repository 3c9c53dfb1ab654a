// The embedded proxy gateway of a test shop: two distinct free ports on loopback and the
// environment that opens its listeners there (usage written every second).
import { freePort } from "./pocketbase.ts";

export interface GatewayPorts {
  http: number;
  socks: number;
  /** GATEWAY_HOST, GATEWAY_HTTP_PORT, GATEWAY_SOCKS_PORT and GATEWAY_FLUSH_SECONDS. */
  env: Record<string, string>;
}

export async function gatewayPorts(): Promise<GatewayPorts> {
  const http = await freePort();
  let socks = await freePort();
  while (socks === http) socks = await freePort();
  return {
    http,
    socks,
    env: { GATEWAY_HOST: "127.0.0.1", GATEWAY_HTTP_PORT: String(http), GATEWAY_SOCKS_PORT: String(socks), GATEWAY_FLUSH_SECONDS: "1" },
  };
}
