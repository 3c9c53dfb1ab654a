/** Where the web server reaches PocketBase (loopback; never exposed directly). */
export function pocketbaseUrl(): string {
  return process.env["POCKETBASE_URL"] ?? "http://127.0.0.1:8090";
}
