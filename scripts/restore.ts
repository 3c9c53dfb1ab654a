// `npm run restore -- <zip|replica-url>`: restores this checkout's data dir (PB_DATA_DIR,
// default pb_data/) from a backup zip or a Litestream replica, into an empty or missing
// data dir only: the release file's `restore` (server/backup-restore.ts).
import { existsSync } from "node:fs";
import path from "node:path";
import { restoreDataDir, restoreMessage } from "../server/backup-restore.ts";
import { doctorOptionsFromEnv } from "../server/doctor.ts";
import { ROOT } from "../server/pocketbase-process.ts";
import { ensureLitestream } from "./go-build.ts";

const envFile = path.join(ROOT, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
const source = process.argv[2];
if (!source || process.argv.length > 3) {
  console.error("Usage: npm run restore -- <backup.zip|file:///replica/dir|s3://bucket/path> (into PB_DATA_DIR, default pb_data/)");
  process.exit(2);
}
try {
  if (/^(file|s3):\/\//.test(source)) await ensureLitestream();
  const done = await restoreDataDir({ source, dataDir: doctorOptionsFromEnv(process.env, ROOT).dataDir });
  console.log(restoreMessage(done, source));
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exit(1);
}
