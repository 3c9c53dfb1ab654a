// Builds pocketbase/bin/pocketbase from the pinned Go module with the machine's Go.
// Skipped when go.mod, go.sum and main.go have not changed since the last build.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, POCKETBASE_BIN } from "../server/pocketbase-process.ts";

const dir = path.join(ROOT, "pocketbase");
const stampFile = path.join(dir, "bin", ".build-stamp");

function findGo(): string {
  for (const candidate of [process.env["GO"], "/usr/local/go/bin/go"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return "go"; // from PATH
}

const inputs = ["go.mod", "go.sum", "main.go"].map((f) => readFileSync(path.join(dir, f)));
const stamp = createHash("sha256").update(Buffer.concat(inputs)).digest("hex");

if (existsSync(POCKETBASE_BIN) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
  console.log("PocketBase binary is up to date.");
} else {
  const go = findGo();
  const version = /github\.com\/pocketbase\/pocketbase (v\S+)/.exec(inputs[0]!.toString())?.[1] ?? "dev";
  console.log(`Building PocketBase ${version} with ${go} (first build takes a minute or two) ...`);
  execFileSync(
    go,
    ["build", "-trimpath", "-ldflags", `-s -w -X github.com/pocketbase/pocketbase.Version=${version}`, "-o", POCKETBASE_BIN, "."],
    { cwd: dir, stdio: "inherit", env: { ...process.env, CGO_ENABLED: "0" } },
  );
  writeFileSync(stampFile, stamp);
  console.log(`Built ${path.relative(ROOT, POCKETBASE_BIN)}.`);
}
