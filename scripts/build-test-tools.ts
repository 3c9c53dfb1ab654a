// Builds what the tests need besides PocketBase, from the Go module proxy into
// pocketbase/bin/: stripe-mock (Stripe's API on loopback, for the payment tests),
// gofakes3 (an S3 server on loopback, for the S3 backup and replica drills) and Litestream
// (the replication tests: tests/api/backups.test.ts, tests/api/security-startup.test.ts,
// tests/soak/restore.test.ts; `npm install` no longer builds it). Each is skipped when its
// pinned version is already there; the first build takes a few minutes.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";
import { ensureLitestream } from "./go-build.ts";
import { FAKE_S3_BIN, FAKE_S3_MODULE } from "../tests/support/fake-s3.ts";
import { STRIPE_MOCK_BIN, STRIPE_MOCK_MODULE } from "../tests/support/stripe-mock.ts";

const go = [process.env["GO"], "/usr/local/go/bin/go"].find((c) => c && existsSync(c)) ?? "go";

function build(name: string, bin: string, module: string, purpose: string): void {
  const stampFile = `${bin}.version`;
  if (existsSync(bin) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === module) {
    console.log(`${name} is up to date.`);
    return;
  }
  console.log(`Building ${module} for ${purpose} ...`);
  // `go install` names the binary after the module's last path element, which is `name`.
  execFileSync(go, ["install", module], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, GOBIN: path.dirname(bin), CGO_ENABLED: "0" },
  });
  writeFileSync(stampFile, module);
  console.log(`Built ${path.relative(ROOT, bin)}.`);
}

build("stripe-mock", STRIPE_MOCK_BIN, STRIPE_MOCK_MODULE, "the payment tests");
build("gofakes3", FAKE_S3_BIN, FAKE_S3_MODULE, "the S3 backup drills");
await ensureLitestream();
