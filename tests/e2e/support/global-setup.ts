// Starts the whole shop (real PocketBase on a temporary data dir + the web server)
// for the end-to-end run, and stops it afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startShop } from "../../../server/shop.ts";
import { smtpEnv, startTestMailbox } from "../../support/smtp-sink.ts";
import { E2E } from "./env.ts";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-e2e-"));
  // Mails go to a loopback SMTP sink; tests read them from its HTTP mailbox
  // (E2E_MAILBOX_URL is inherited by the Playwright workers).
  const mailbox = await startTestMailbox();
  process.env["E2E_MAILBOX_URL"] = mailbox.url;
  // Tests write proxy columns the records API refuses straight in data.db (support/pocketbase.ts).
  process.env["E2E_DATA_DIR"] = dataDir;
  const shop = await startShop({
    webPort: E2E.webPort,
    pocketbasePort: E2E.pocketbasePort,
    dataDir,
    superuserEmail: E2E.superuser.email,
    superuserPassword: E2E.superuser.password,
    hooksEnv: {
      SHOP_APP_URL: E2E.baseUrl,
      SHOP_DEMO_SEED: "false",
      // Every browser (and the tests' own clients) reaches PocketBase as 127.0.0.1, and
      // no address is exempt from the rate limiter: raise all limits for the run
      // (test-only knob; docs/data-model.md).
      SHOP_RATE_LIMIT_SCALE: "100",
      // Buy Credits uses the labelled test provider (no Stripe keys here).
      PAYMENTS_TEST_MODE: "true",
      ...smtpEnv(mailbox.sink),
    },
  });
  return async () => {
    await shop.stop();
    await mailbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
