// Starts the whole shop (real PocketBase on a temporary data dir + the web server)
// for the end-to-end run, and stops it afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startShop } from "../../../server/shop.ts";
import { E2E } from "./env.ts";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-e2e-"));
  const shop = await startShop({
    webPort: E2E.webPort,
    pocketbasePort: E2E.pocketbasePort,
    dataDir,
    superuserEmail: E2E.superuser.email,
    superuserPassword: E2E.superuser.password,
    hooksEnv: { SHOP_APP_URL: E2E.baseUrl, SHOP_DEMO_SEED: "false" },
  });
  return async () => {
    await shop.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
