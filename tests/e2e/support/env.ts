// Fixed loopback ports for the end-to-end run (one shop for the whole run).
const envPort = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const webPort = envPort("E2E_WEB_PORT", 4410);
const pocketbasePort = envPort("E2E_PB_PORT", 8110);

// E2E_WEB_PORT / E2E_PB_PORT let two runs share a machine.
export const E2E = {
  webPort,
  pocketbasePort,
  baseUrl: `http://127.0.0.1:${webPort}`,
  pocketbaseUrl: `http://127.0.0.1:${pocketbasePort}`,
  superuser: { email: "superuser@e2e.local", password: "Superuser#E2e2026" },
};
