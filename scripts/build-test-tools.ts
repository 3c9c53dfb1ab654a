// Builds what the tests need besides PocketBase: stripe-mock (Stripe's API on loopback,
// for the payment tests), from the Go module proxy into pocketbase/bin/. Skipped when the
// pinned version is already there; the first build takes about two minutes.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../server/pocketbase-process.ts";
import { STRIPE_MOCK_BIN, STRIPE_MOCK_MODULE } from "../tests/support/stripe-mock.ts";

const stampFile = `${STRIPE_MOCK_BIN}.version`;

if (existsSync(STRIPE_MOCK_BIN) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === STRIPE_MOCK_MODULE) {
  console.log("stripe-mock is up to date.");
} else {
  const go = [process.env["GO"], "/usr/local/go/bin/go"].find((c) => c && existsSync(c)) ?? "go";
  console.log(`Building ${STRIPE_MOCK_MODULE} for the payment tests (first build takes about two minutes) ...`);
  execFileSync(go, ["install", STRIPE_MOCK_MODULE], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, GOBIN: path.dirname(STRIPE_MOCK_BIN), CGO_ENABLED: "0" },
  });
  writeFileSync(stampFile, STRIPE_MOCK_MODULE);
  console.log(`Built ${path.relative(ROOT, STRIPE_MOCK_BIN)}.`);
}
