// `npm run test:go`: the Go packages' own tests (the proxy gateway, pocketbase/gateway),
// with the machine's Go (GO, /usr/local/go/bin/go, or go from PATH, as the build finds it).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";

const go = [process.env["GO"], "/usr/local/go/bin/go"].find((candidate) => candidate && existsSync(candidate)) ?? "go";
const result = spawnSync(go, ["test", "-count=1", "./gateway/...", ...process.argv.slice(2)], {
  cwd: path.join(ROOT, "pocketbase"),
  stdio: "inherit",
  env: { ...process.env, CGO_ENABLED: "0" },
});
process.exit(result.status ?? 1);
