// Proxy passwords are encrypted at rest (pocketbase/pb_hooks/lib/core/sealing.js): the
// database files never hold a password in clear, equal passwords get different
// ciphertexts, customers still read plaintext everywhere (records API, purchase answer,
// realtime), old plaintext rows are encrypted by the migration, and PocketBase refuses to
// start without the right SHOP_CREDENTIALS_KEY.
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EventSource } from "eventsource";
import PocketBase from "pocketbase";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, newCredentialsKey, startPocketBase } from "../../server/pocketbase-process.ts";
import { freePort, SUPERUSER, TEST_CREDENTIALS_KEY, TEST_RATE_LIMIT_ENV } from "../support/pocketbase.ts";
import { customer, purchase, proxyFields } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const shop = useShop({ ledger: false });

let seq = 0;
const unique = () => `${Date.now().toString(36)}${seq++}${randomBytes(3).toString("hex")}`;

/** One AVAILABLE proxy made through the records API as the superuser, with a known password. */
async function proxyWith(password: string, country: string, type = "HTTPS") {
  const tag = unique();
  return shop.su.collection("proxies").create({
    host: `cred-${tag}.test`,
    port: 8080,
    username: `user-${tag}`,
    password,
    type,
    country,
    status: "AVAILABLE",
  });
}

/** The bytes of the test PocketBase's main database and its write-ahead log. */
function databaseBytes(dataDir: string): Buffer {
  return Buffer.concat(
    ["data.db", "data.db-wal"]
      .map((f) => path.join(dataDir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f)),
  );
}

describe("proxy passwords at rest", () => {
  it("never writes a bought proxy's password in clear to data.db or its WAL", async () => {
    const country = `C${unique().slice(-6)}`;
    const password = `PlainSecret-${unique()}`;
    const proxy = await proxyWith(password, country);
    const buyer = await customer(shop, 1000);

    const order = await purchase(buyer.pb, { type: "HTTPS", country, quantity: 1 });
    expect(order.proxies[0]?.["password"]).toBe(password);
    // The records API used by My Proxies answers the plaintext to its owner ...
    expect((await buyer.pb.collection("proxies").getOne(proxy.id))["password"]).toBe(password);
    // ... and never the stored form.
    expect((await buyer.pb.collection("proxies").getOne(proxy.id))["password_encrypted"]).toBeUndefined();

    const bytes = databaseBytes(shop.tpb.dataDir);
    // The search works: the username (stored in clear) is found in the same bytes.
    expect(bytes.includes(Buffer.from(proxy["username"] as string))).toBe(true);
    expect(bytes.includes(Buffer.from(password))).toBe(false);
  });

  it("gives two proxies with the same password different ciphertexts, both opening to it", async () => {
    const country = `C${unique().slice(-6)}`;
    const password = `Same-${unique()}`;
    const a = await proxyWith(password, country);
    const b = await proxyWith(password, country);
    // Hidden fields are visible to superusers only.
    const sealedA = (await shop.su.collection("proxies").getOne(a.id))["password_encrypted"] as string;
    const sealedB = (await shop.su.collection("proxies").getOne(b.id))["password_encrypted"] as string;
    expect(sealedA).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealedB).toMatch(/^v1:[A-Za-z0-9+/]+=*$/);
    expect(sealedA).not.toBe(sealedB);
    expect(sealedA).not.toContain(password);
    const admin = await shop.admin.send<{ password: string }>(`/api/admin/proxies/${b.id}`, { method: "GET" });
    expect(admin.password).toBe(password);
  });

  it("refuses a records-API write of password_encrypted and a create without a password", async () => {
    const tag = unique();
    const base = { host: `raw-${tag}.test`, port: 1, username: "u", type: "HTTP", country: "US", status: "AVAILABLE" };
    await expect(shop.su.collection("proxies").create({ ...base, password_encrypted: "v1:forged" })).rejects.toMatchObject({
      status: 400,
      response: { data: { password_encrypted: { code: "validation_read_only" } } },
    });
    await expect(shop.su.collection("proxies").create(base)).rejects.toMatchObject({
      status: 400,
      response: { data: { password: { message: "Password is required." } } },
    });
    expect(await shop.su.collection("proxies").getList(1, 1, { filter: shop.su.filter("host = {:h}", { h: base.host }) })).toMatchObject({
      totalItems: 0,
    });
  });

  it("answers plaintext on realtime events to the owner, and on regenerated credentials", async () => {
    const country = `C${unique().slice(-6)}`;
    const proxy = await proxyWith(`Before-${unique()}`, country);
    const buyer = await customer(shop, 1000);
    await purchase(buyer.pb, { type: "HTTPS", country, quantity: 1 });

    const events: Record<string, unknown>[] = [];
    await buyer.pb.collection("proxies").subscribe(proxy.id, (e) => events.push(e.record));
    try {
      const fresh = await buyer.pb.send<Record<string, unknown>>(`/api/v1/proxies/${proxy.id}/rotate`, { method: "POST" });
      expect(fresh["password"]).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(fresh["password_encrypted"]).toBeUndefined();
      await expect.poll(() => events.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(events.at(-1)?.["password"]).toBe(fresh["password"]);
      expect(events.at(-1)?.["password_encrypted"]).toBeUndefined();
      // The auto-renew switch answers the proxy with its password too.
      const patched = await buyer.pb.send<Record<string, unknown>>(`/api/v1/proxies/${proxy.id}`, {
        method: "PATCH",
        body: { auto_renew: true },
      });
      expect(patched["password"]).toBe(fresh["password"]);
    } finally {
      await buyer.pb.collection("proxies").unsubscribe();
    }
  });
});

describe("SHOP_CREDENTIALS_KEY at start", () => {
  async function startWith(dataDir: string, key: string | undefined, migrationsDir?: string) {
    return startPocketBase({
      dataDir,
      port: await freePort(),
      superuserEmail: SUPERUSER.email,
      superuserPassword: SUPERUSER.password,
      env: { ...TEST_RATE_LIMIT_ENV, SHOP_CREDENTIALS_KEY: key ?? "" },
      ...(migrationsDir ? { migrationsDir } : {}),
    });
  }
  const dirs: string[] = [];
  const tempDir = (name: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `proxyshop-${name}-`));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start without a key, or with a malformed one, saying what it needs", async () => {
    await expect(startWith(tempDir("nokey"), undefined)).rejects.toThrow(/SHOP_CREDENTIALS_KEY is not set.*exactly 32 characters/s);
    await expect(startWith(tempDir("shortkey"), "too-short")).rejects.toThrow(/SHOP_CREDENTIALS_KEY is malformed/);
    await expect(startWith(tempDir("badkey"), `${"a".repeat(31)}!`)).rejects.toThrow(/SHOP_CREDENTIALS_KEY is malformed/);
  });

  it("encrypts the passwords stored before the change, and then refuses a key that does not open them", async () => {
    // A data dir made by the migrations before 1764300100 holds passwords in clear.
    const oldMigrations = tempDir("old-migrations");
    cpSync(MIGRATIONS_DIR, oldMigrations, { recursive: true });
    for (const file of readdirSync(oldMigrations)) {
      if (file >= "1764300100") rmSync(path.join(oldMigrations, file));
    }
    const dataDir = tempDir("upgrade");
    const key = newCredentialsKey();
    const plain = `OldPlain-${unique()}`;
    let pb = await startWith(dataDir, key, oldMigrations);
    try {
      const su = new PocketBase(pb.url);
      await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const old = await su.collection("proxies").getFullList({ fields: "id" });
      expect(old).toEqual([]);
      await su.collection("proxies").create(proxyFields({ host: "old.test", port: 1, username: "old", password: plain }));
    } finally {
      await pb.stop();
    }

    pb = await startWith(dataDir, key);
    try {
      const su = new PocketBase(pb.url);
      await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      const [row] = await su.collection("proxies").getFullList();
      expect(row?.["password"]).toBe(plain);
      expect(row?.["password_encrypted"]).toMatch(/^v1:/);
    } finally {
      await pb.stop();
    }

    await expect(startWith(dataDir, newCredentialsKey())).rejects.toThrow(/does not decrypt the proxy passwords stored in this data dir/);
    // The right key still works.
    pb = await startWith(dataDir, key);
    await pb.stop();
    expect(TEST_CREDENTIALS_KEY).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
