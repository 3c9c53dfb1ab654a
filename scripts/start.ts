// `npm start`: the embedded default, from this checkout. PocketBase with demo data on a
// local data dir (PB_DATA_DIR, default pb_data/), the web server in front of it, the URL
// and the demo logins printed; with LITESTREAM_REPLICA set, Litestream replicating
// data.db beside them. Ctrl-C stops all. The logic is server/run-shop.ts, which the
// release file's `serve` runs too (server/release/).
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";
import { runShop } from "../server/run-shop.ts";
import { ensureBuilt } from "./ensure-built.ts";
import { ensureLitestream } from "./go-build.ts";

await runShop({
  envFile: path.join(ROOT, ".env"),
  baseDir: ROOT,
  defaultDataDir: "pb_data",
  prepare: async ({ replica }) => {
    ensureBuilt();
    // Litestream is built on demand, the first time replication is configured.
    if (replica) await ensureLitestream();
  },
});
