// The release file on a real host (issue #17): a setup link that makes the first admin, a
// sale to a customer, backups (live and from the Litestream replica) and a restore that
// serves the same data, all from the release file in its sandbox (sandbox.ts).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/pocketbase.ts";
import { smtpEnv, startTestMailbox, waitForMail } from "../support/smtp-sink.ts";
import { readZip } from "../../server/zip.ts";
import { box, run, runAsync, serve, useReleaseSandbox } from "./sandbox.ts";

useReleaseSandbox();

describe("the release file on a real host", () => {
  it("prints a setup link that makes the first admin, sells to a customer, and backs up and restores that data", async () => {
    const began = Date.now();
    const mailbox = await startTestMailbox();
    try {
      const port = await freePort();
      // 127.0.0.2: not loopback to the shop (only 127.0.0.1, localhost and ::1 are), yet local.
      const host = "127.0.0.2";
      const appUrl = `http://${host}:${port}`;
      const realEnv = {
        ...smtpEnv(mailbox.sink),
        APP_URL: appUrl,
        PAYMENTS_TEST_MODE: "true",
        // The same key for the shop and its restored copy (a restore needs the key it had).
        SHOP_CREDENTIALS_KEY: "release-test-key-0123456789abcde",
      };
      // The first shop replicates with Litestream too (a replica to restore from below).
      const replicaUrl = `file://${path.join(box.dir, "replica")}`;
      const shop = await serve({ host, port, env: { ...realEnv, LITESTREAM_REPLICA: replicaUrl }, data: "real-data" });
      let customerId = "";
      let customerToken = "";
      let balance = 0;
      let proxyIds: string[] = [];
      const balanceOf = async (client: PocketBase) =>
        (await client.collection("balances").getFirstListItem<{ balance_cents: number }>(`user_id = "${customerId}"`)).balance_cents;
      try {
        const banner = shop.output();
        expect(banner).toContain("Demo data is off");
        // The doctor's missing items: the test provider (and the administrator); APP_URL, SMTP and Litestream are set.
        expect(banner).toContain("Missing for a real shop");
        expect(banner).toMatch(/missing {2}Payments/);
        expect(banner).toMatch(/missing {2}Administrator/);
        expect(banner).not.toMatch(/missing {2}(APP_URL|SMTP|Litestream|Credentials key)/);
        const link = new RegExp(
          `No administrator yet: open (${appUrl.replace(/\./g, "\\.")}/console/setup\\?token=\\S+) within 30 minutes`,
        ).exec(banner)?.[1];
        expect(link, banner).toBeTruthy();
        const setupToken = new URL(link!).searchParams.get("token")!;

        // The link's page: check, then the first admin with their own e-mail and password.
        const pb = () => new PocketBase(shop.url);
        expect(await pb().send("/api/setup/check", { method: "POST", body: { token: setupToken } })).toMatchObject({ valid: true });
        const owner = { email: `owner-${Date.now()}@example.test`, password: "Release#Owner2026" };
        await pb().send("/api/setup/admin", {
          method: "POST",
          body: { token: setupToken, first_name: "Ada", last_name: "Owner", ...owner },
        });
        await expect(
          pb().send("/api/setup/admin", {
            method: "POST",
            body: {
              token: setupToken,
              first_name: "Eve",
              last_name: "Again",
              email: `again-${Date.now()}@example.test`,
              password: owner.password,
            },
          }),
        ).rejects.toMatchObject({ status: expect.any(Number) as number });
        const admin = pb();
        await admin.collection("users").authWithPassword(owner.email, owner.password);
        const users = await admin.send<{ items: { email: string }[] }>("/api/admin/users", {});
        expect(users.items.map((u) => u.email)).toContain(owner.email);
        await admin.send("/api/admin/proxies/generate", { method: "POST", body: { type: "DATACENTER", country: "US", quantity: 3 } });

        // A customer signs up, verifies from the mail, buys credits (test provider) and a proxy.
        const email = `buyer-${Date.now()}@example.test`;
        const signup = await pb().send<{ token: string; record: { id: string } }>("/api/shop/signup", {
          method: "POST",
          body: { first_name: "Rel", last_name: "Ease", email, country: "Chile", ref: "" },
        });
        customerId = signup.record.id;
        customerToken = signup.token;
        const mail = await waitForMail(mailbox.sink, email, /verif/i, { timeoutMs: 15_000 });
        const verifyToken = /[?&]verify=([\w.-]+)/.exec(mail.text)?.[1];
        expect(verifyToken, mail.text).toBeTruthy();
        // Opening the link without the sign-up session signs the owner in anew (the old session ends).
        const verified = await pb().send<{ token: string; record: { verified: boolean } }>("/api/collections/users/confirm-verification", {
          method: "POST",
          body: { token: verifyToken },
        });
        expect(verified.record.verified).toBe(true);
        customerToken = verified.token;
        const buyer = pb();
        buyer.authStore.save(customerToken, null);
        const paid = await buyer.send<{ checkout_url: string | null; balance_cents: number }>("/api/v1/credits/checkout", {
          method: "POST",
          body: { package_id: "package-10" },
          headers: { "Idempotency-Key": randomUUID() },
        });
        expect(paid.checkout_url).toBeNull();
        expect(paid.balance_cents).toBeGreaterThan(0);
        const bought = await buyer.send<{ balance_cents: number }>("/api/v1/proxies/purchase", {
          method: "POST",
          body: { type: "DATACENTER", country: "US", quantity: 1 },
          headers: { "Idempotency-Key": randomUUID() },
        });
        balance = await balanceOf(buyer);
        expect(balance).toBe(bought.balance_cents);
        expect(balance).toBeLessThan(paid.balance_cents);
        proxyIds = (await buyer.collection("proxies").getFullList()).map((p) => p.id);
        expect(proxyIds).toHaveLength(1);

        // A backup while the shop runs: its own PocketBase makes it.
        const live = await runAsync(["backup", "--data", "real-data"], realEnv);
        expect(live.output).toContain("The shop is running on");
        expect(live.code, live.output).toBe(0);
      } finally {
        expect(await shop.stop()).toBe(0);
      }

      // The commands beside a stopped shop.
      expect(run(["admin", "create"], realEnv)).toMatchObject({ code: 2, output: expect.stringContaining("one e-mail address") as string });
      expect(run(["admin", "create", "not-an-address"], realEnv)).toMatchObject({
        code: 2,
        output: expect.stringContaining("is not an e-mail address") as string,
      });
      const another = run(["admin", "create", "second@example.test", "--data", "real-data"], realEnv);
      expect(another.code, another.output).toBe(0);
      expect(another.output).toMatch(new RegExp(`${appUrl.replace(/\./g, "\\.")}/console/setup\\?token=[A-Za-z0-9]+`));
      const doctor = run(["doctor", "--data", "real-data"], { ...realEnv, HOST: host });
      expect(doctor.code).toBe(0);
      expect(doctor.output).toMatch(/ok {7}APP_URL {10}http:\/\/127\.0\.0\.2:/);
      expect(doctor.output).toMatch(/ok {7}SMTP/);
      expect(doctor.output).toMatch(/ok {7}Administrator/);
      expect(doctor.output).toMatch(/missing {2}Litestream/);

      // A backup of the stopped shop: a PocketBase started for it alone.
      const made = run(["backup", "--data", "real-data"], realEnv);
      expect(made.code, made.output).toBe(0);
      const zipFile = /Backup written: (\S+\.zip)/.exec(made.output)?.[1] ?? "";
      // To the millisecond, with a random part: never the name of the backup made above in the same second (#26 finding 13).
      expect(path.basename(zipFile)).toMatch(/^real-data-backup-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{6}\.zip$/);
      expect(readdirSync(box.dir).filter((f) => f.startsWith("real-data-backup-"))).toHaveLength(2);
      expect(path.dirname(zipFile)).toBe(box.dir);
      const names = readZip(readFileSync(zipFile)).map((e) => e.name);
      expect(names).toContain("data.db");
      expect(names).not.toContain(".superuser-password");
      expect(names.some((n) => n.startsWith("backups/"))).toBe(false);

      // From the Litestream replica, into a data dir of its own.
      const fromReplica = run(["restore", replicaUrl, "--data", "replica-data"], realEnv);
      expect(fromReplica.code, fromReplica.output).toBe(0);
      expect(fromReplica.output).toContain(`from the Litestream replica ${replicaUrl} into ${path.join(box.dir, "replica-data")}`);
      expect(statSync(path.join(box.dir, "replica-data", "data.db")).size).toBeGreaterThan(0);

      // Restore: never over data; into a new data dir, which then serves the same data.
      const over = run(["restore", zipFile, "--data", "real-data"], realEnv);
      expect(over.code).toBe(1);
      expect(over.output).toContain("is not empty");
      const restored = run(["restore", zipFile, "--data", "restored-data"], realEnv);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toContain(`into ${path.join(box.dir, "restored-data")}`);
      expect(restored.output).toContain("same credentials key");
      const copy = await serve({ host, port, env: realEnv, data: "restored-data" });
      try {
        // An administrator exists there: no setup link.
        expect(copy.output()).not.toContain("No administrator yet");
        const buyer = new PocketBase(copy.url);
        buyer.authStore.save(customerToken, null);
        expect(await balanceOf(buyer)).toBe(balance);
        expect((await buyer.collection("proxies").getFullList()).map((p) => p.id)).toEqual(proxyIds);
      } finally {
        expect(await copy.stop()).toBe(0);
      }
    } finally {
      await mailbox.stop();
      console.log(`Real host test: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
  });
});
