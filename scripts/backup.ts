// `npm run backup`: a backup zip of this checkout's data dir (PB_DATA_DIR, default pb_data/),
// made by PocketBase, written to the working directory: the release file's `backup`
// (server/backup-restore.ts). Reads the settings `npm start` reads (the environment, then .env).
import { existsSync } from "node:fs";
import path from "node:path";
import { backupDataDir, backupMessage } from "../server/backup-restore.ts";
import { doctorOptionsFromEnv } from "../server/doctor.ts";
import { ROOT } from "../server/pocketbase-process.ts";

const envFile = path.join(ROOT, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
if (process.argv.length > 2) {
  console.error("Usage: npm run backup (the data dir is PB_DATA_DIR, default pb_data/)");
  process.exit(2);
}
try {
  const made = await backupDataDir({ dataDir: doctorOptionsFromEnv(process.env, ROOT).dataDir, log: (l) => console.log(l) });
  console.log(backupMessage(made));
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
