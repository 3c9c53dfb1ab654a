// Fixed loopback ports for the end-to-end run (one shop for the whole run).
export const E2E = {
  webPort: 4410,
  pocketbasePort: 8110,
  baseUrl: "http://127.0.0.1:4410",
  pocketbaseUrl: "http://127.0.0.1:8110",
  superuser: { email: "superuser@e2e.local", password: "Superuser#E2e2026" },
};
