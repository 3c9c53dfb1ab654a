// `npm run admin:create -- <email>`: prints a one-time link (30 minutes) that creates a shop
// administrator with that e-mail and a password of their choosing (server/admin-setup.ts).
// Without an e-mail the link is for any address. Reads the settings `npm start` reads (the
// environment, then .env): PB_DATA_DIR, APP_URL, the credentials key.
import { existsSync } from "node:fs";
import path from "node:path";
import { setupLink } from "../server/admin-setup.ts";
import { doctorOptionsFromEnv } from "../server/doctor.ts";
import { ROOT } from "../server/pocketbase-process.ts";

const envFile = path.join(ROOT, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
const email = process.argv[2]?.trim();
if (process.argv.length > 3 || email?.startsWith("-")) {
  console.error("Usage: npm run admin:create -- <email>");
  process.exit(1);
}
const { dataDir, appUrl } = doctorOptionsFromEnv(process.env, ROOT);
try {
  const link = await setupLink({ dataDir, appUrl, ...(email ? { email } : {}) });
  console.log(`Open this link within 30 minutes to create the administrator${email ? ` ${email}` : ""} (it works once):\n${link}`);
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
