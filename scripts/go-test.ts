// `npm run test:go`: the Go module's own tests (the main package: the downgrade guard; the
// proxy gateway, pocketbase/gateway; the webhook dispatcher, pocketbase/webhooks; the
// developer API's middleware, pocketbase/devapi; the gateway protocol's shop side,
// pocketbase/gatewayapi; pocketbase/keylimit and pocketbase/tokens), with the
// machine's Go (GO, /usr/local/go/bin/go, or go from PATH, as the build finds it).
// -trimpath and CGO_ENABLED=0 as in the build (scripts/go-build.ts), so PocketBase's packages
// come from the build cache npm install filled.
// go vet runs on the packages that do not import PocketBase; on the others it would first
// analyse all of PocketBase (a minute or more on a cold cache), so there it is off.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";

const go = [process.env["GO"], "/usr/local/go/bin/go"].find((candidate) => candidate && existsSync(candidate)) ?? "go";
const extra = process.argv.slice(2);
for (const args of [
  ["test", "-count=1", "-trimpath", "./gateway/...", "./webhooks/...", "./keylimit/...", "./tokens/...", ...extra],
  ["test", "-count=1", "-trimpath", "-vet=off", ".", "./devapi/...", "./gatewayapi/...", ...extra],
]) {
  const result = spawnSync(go, args, { cwd: path.join(ROOT, "pocketbase"), stdio: "inherit", env: { ...process.env, CGO_ENABLED: "0" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
