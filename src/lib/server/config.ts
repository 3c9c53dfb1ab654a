/** Where the web server reaches PocketBase (loopback; never exposed directly). */
export function pocketbaseUrl(): string {
  return process.env["POCKETBASE_URL"] ?? "http://127.0.0.1:8090";
}

/**
 * The header that vouches for a forwarded address: PocketBase believes X-Forwarded-For only
 * beside the secret the process that started it made for this start, and removes both
 * otherwise (pocketbase/forwarded.go, issue #26 finding 6). Never sent to a browser.
 */
export const FORWARDING_SECRET_HEADER = "X-Shop-Forwarding-Secret";

/**
 * The environment variable holding that secret: PocketBase's (server/pocketbase-process.ts
 * sets it for each start), and this process's while the web server in front of it runs
 * (server/web-server.ts sets it, like POCKETBASE_URL).
 */
export const FORWARDING_SECRET_ENV = "SHOP_FORWARDING_SECRET";

/**
 * Headers that tell PocketBase a request is the visitor's at `clientIp` (so its rate limits,
 * API key allowlists and logs count the visitor, not us): X-Forwarded-For and the secret.
 * Without a secret (no web server set one) PocketBase sees our own address.
 */
export function forwardedFor(clientIp: string): Record<string, string> {
  const secret = process.env[FORWARDING_SECRET_ENV];
  return secret ? { "X-Forwarded-For": clientIp, [FORWARDING_SECRET_HEADER]: secret } : { "X-Forwarded-For": clientIp };
}
