// The 1764600200 migration (issue #16) on a shop that had proxies before the gateway:
// username clashes resolved, every proxy moved to the gateway's endpoint with its owner's
// credentials and upstream kept, each owner mailed once.
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestUser, signIn, startTestPocketBase, type TestPocketBase } from "../support/pocketbase.ts";
import { iso, setProxyColumns, DAY } from "../support/shop.ts";
import { smtpEnv, startTestMailbox, waitForMail, type TestMailbox } from "../support/smtp-sink.ts";
import { migrationsBefore, useTempDirs } from "../support/upgrade-dirs.ts";
import { APP_HOST, APP_URL, DEFAULT_HTTP_PORT, DEFAULT_SOCKS_PORT } from "./cases/gateway-exits-kit.ts";

describe("the 1764600200 migration", () => {
  const tempDir = useTempDirs();
  let mailbox: TestMailbox;
  beforeAll(async () => {
    mailbox = await startTestMailbox();
  });
  afterAll(async () => {
    await mailbox.stop();
  });

  it("resolves username clashes, moves every proxy to the gateway keeping owners' credentials and upstreams, and mails each owner once", async () => {
    const oldMigrations = migrationsBefore(tempDir("gw-old-migrations"), "1764600100");
    const dataDir = tempDir("gw-upgrade");
    // No gateway listener (its ports unset: the endpoint's are then 3128 and 1080), which
    // could not start on the schema before it anyway.
    const env = { SHOP_APP_URL: APP_URL, GATEWAY_HTTP_PORT: "", GATEWAY_SOCKS_PORT: "", ...smtpEnv(mailbox.sink) };

    let tpb: TestPocketBase = await startTestPocketBase(env, { dataDir, migrationsDir: oldMigrations });
    const rows: Record<string, RecordModel> = {};
    let owner: { id: string; email: string; password: string };
    let other: { id: string; email: string; password: string };
    try {
      const su = await tpb.superuser();
      owner = await createTestUser(su, { email: `owner-${randomUUID()}@api.test`, first_name: "Olga" });
      other = await createTestUser(su, { email: `other-${randomUUID()}@api.test` });
      const make = (name: string, host: string, port: number, username: string, type = "HTTP") =>
        su
          .collection("proxies")
          .create({ host, port, username, password: `Pw-${name}-0123456789`, type, country: "US", status: "AVAILABLE" })
          .then((r) => (rows[name] = r));
      await make("spare", "a.test", 1000, "shared"); // oldest, unsold
      await make("sold", "b.test", 2000, "shared"); // the owner's: keeps the username
      await make("later", "c.test", 3000, "shared", "SOCKS5");
      await make("solo", "d.test", 4000, "solo", "SOCKS5");
      await make("expired", "e.test", 5000, "lapsed");
      await make("untouched", "f.test", 6000, "free");
    } finally {
      await tpb.stop();
    }
    const future = iso(Date.now() + 10 * DAY);
    setProxyColumns(tpb, [rows["sold"]!.id, rows["solo"]!.id], { status: "ASSIGNED", assigned_to_user_id: owner!.id, expires_at: future });
    setProxyColumns(tpb, [rows["expired"]!.id], { status: "EXPIRED", assigned_to_user_id: other!.id, expires_at: iso(Date.now() - DAY) });
    setProxyColumns(tpb, [rows["later"]!.id], { created: iso(Date.now() + DAY) });

    tpb = await startTestPocketBase(env, { dataDir });
    try {
      const su = await tpb.superuser();
      const after: Record<string, RecordModel> = Object.fromEntries(
        await Promise.all(Object.entries(rows).map(async ([k, r]) => [k, await su.collection("proxies").getOne(r.id)])),
      );
      expect(after["sold"]!["username"]).toBe("shared");
      for (const name of ["spare", "later"]) {
        expect(after[name]!["username"]).not.toBe("shared");
        expect(after[name]!["username"]).toMatch(/^(htt|soc)_us_[a-z0-9]{12}$/);
      }
      expect(after["solo"]!["username"]).toBe("solo");
      for (const [name, row] of Object.entries(after)) {
        const old = rows[name]!;
        expect(row, name).toMatchObject({
          host: APP_HOST,
          port: old["type"] === "SOCKS5" ? DEFAULT_SOCKS_PORT : DEFAULT_HTTP_PORT,
          exit: "upstream",
          upstream_host: old["host"],
          upstream_port: old["port"],
          upstream_username: old["username"],
          endpoint_notice_pending: false,
        });
        expect(row["upstream_password_encrypted"]).toBe(old["password_encrypted"]);
      }
      // Owners keep the credentials they hold.
      const ownerPb = await signIn(tpb, owner!);
      const mine = await ownerPb.collection("proxies").getFullList({ sort: "username" });
      expect(mine.map((p) => [p["username"], p["password"], p["host"], p["port"]])).toEqual([
        ["shared", "Pw-sold-0123456789", APP_HOST, DEFAULT_HTTP_PORT],
        ["solo", "Pw-solo-0123456789", APP_HOST, DEFAULT_SOCKS_PORT],
      ]);

      const mail = await waitForMail(mailbox.sink, owner!.email, /new host and port/);
      expect(mail.subject).toBe("ProxyShop: Your proxies have a new host and port");
      expect(mail.text).toContain("Your username and password stay the same.");
      expect(mail.text).toContain(`shared: ${APP_HOST}:${DEFAULT_HTTP_PORT}`);
      expect(mail.text).toContain(`solo: ${APP_HOST}:${DEFAULT_SOCKS_PORT}`);
      expect(mail.text).toContain(`http://${APP_HOST}:4321/dashboard/proxies`);
      expect(mail.text).not.toContain("Pw-");
      await waitForMail(mailbox.sink, other!.email, /Your proxy has a new host and port/);
    } finally {
      await tpb.stop();
    }
    // Once: another start sends nothing more.
    tpb = await startTestPocketBase(env, { dataDir });
    await tpb.stop();
    const notices = mailbox.sink.messages.filter((m) => /new host and port/.test(m.subject));
    expect(notices.map((m) => m.to).sort()).toEqual([[owner!.email], [other!.email]].sort());
  }, 120_000);
});
