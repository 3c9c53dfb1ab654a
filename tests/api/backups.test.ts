// PocketBase's own backups: the daily schedule kept 7 is on by default (an operator's
// schedule is never overwritten), SHOP_BACKUP_* pins it from the environment, and a backup
// made through the API is a zip of the data dir holding data.db and no secret: not the
// credentials key (kept beside the data dir, in .secrets/), not the superuser password
// file `npm start` keeps in the data dir, not a proxy password in clear.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PocketBase from "pocketbase";
import { afterAll, describe, expect, it } from "vitest";
import { backupDataDir } from "../../server/backup-restore.ts";
import { credentialsKeyFromFile, MIGRATIONS_DIR } from "../../server/pocketbase-process.ts";
import { startTestPocketBase, SUPERUSER, type TestPocketBase } from "../support/pocketbase.ts";
import { addStock, customer, purchase, shopClients } from "../support/shop.ts";
import { extractZip, readZip } from "../../server/zip.ts";

interface BackupsSettings {
  cron: string;
  cronMaxKeep: number;
  s3: { enabled: boolean; bucket: string; region: string; endpoint: string; accessKey: string; forcePathStyle: boolean };
}

const dirs: string[] = [];
function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `proxyshop-backups-${name}-`));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A TestPocketBase on a data dir of our own, with this file's key and no backup env of the runner's. */
function testPocketBaseOn(dataDir: string, env: Record<string, string>, migrationsDir?: string): Promise<TestPocketBase> {
  return startTestPocketBase(
    { SHOP_CREDENTIALS_KEY: KEY, ...NO_BACKUP_ENV, ...env },
    { dataDir, ...(migrationsDir ? { migrationsDir } : {}) },
  );
}

async function backupsSettings(su: PocketBase): Promise<BackupsSettings> {
  return ((await su.settings.getAll()) as { backups: BackupsSettings }).backups;
}

/** Runs `body` against a PocketBase on `dataDir` as the superuser, then stops it. */
async function withPocketBase<T>(
  dataDir: string,
  env: Record<string, string>,
  body: (su: PocketBase) => Promise<T>,
  migrationsDir?: string,
): Promise<T> {
  const tpb = await testPocketBaseOn(dataDir, env, migrationsDir);
  try {
    return await body(await tpb.superuser());
  } finally {
    await tpb.stop();
  }
}

/**
 * The layout `npm start` makes (scripts/start.ts): the credentials key in .secrets/ BESIDE
 * the data dir, the generated superuser password in the data dir.
 */
const LAYOUT = tempDir("layout");
const KEY = credentialsKeyFromFile(path.join(LAYOUT, ".secrets", "pb_data.credentials-key")).key;
/** Whatever the runner's shell exports, these tests start from an unset environment. */
const NO_BACKUP_ENV = Object.fromEntries(
  ["CRON", "KEEP", "S3_BUCKET", "S3_REGION", "S3_ENDPOINT", "S3_ACCESS_KEY", "S3_SECRET", "S3_FORCE_PATH_STYLE"].map((v) => [
    `SHOP_BACKUP_${v}`,
    "",
  ]),
);

describe("the backup schedule", () => {
  it("is daily at 03:00 UTC, keeping the last 7, on a new install, stored locally", async () => {
    const backups = await withPocketBase(tempDir("new"), {}, backupsSettings);
    expect(backups.cron).toBe("0 3 * * *");
    expect(backups.cronMaxKeep).toBe(7);
    expect(backups.s3.enabled).toBe(false);
  });

  it("keeps an operator's schedule, and SHOP_BACKUP_* pins it on every start it is set", async () => {
    // An install made before the schedule migration, where the operator chose a schedule.
    const before = tempDir("old-migrations");
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    for (const file of readdirSync(before)) if (file >= "1764300600") rmSync(path.join(before, file));
    const dataDir = tempDir("operator");
    await withPocketBase(
      dataDir,
      {},
      async (su) => {
        expect((await backupsSettings(su)).cron).toBe("");
        await su.settings.update({ backups: { cron: "15 4 * * 0", cronMaxKeep: 2 } });
      },
      before,
    );

    // The migration leaves that choice alone.
    expect(await withPocketBase(dataDir, {}, backupsSettings)).toMatchObject({ cron: "15 4 * * 0", cronMaxKeep: 2 });

    // The environment wins while it is set, S3 included (its secret is never shown back).
    const s3Env = {
      SHOP_BACKUP_CRON: "30 1 * * *",
      SHOP_BACKUP_KEEP: "14",
      SHOP_BACKUP_S3_BUCKET: "shop-backups",
      SHOP_BACKUP_S3_REGION: "eu-central-1",
      SHOP_BACKUP_S3_ENDPOINT: "https://s3.eu-central-1.example.com",
      SHOP_BACKUP_S3_ACCESS_KEY: "AKIAEXAMPLE",
      SHOP_BACKUP_S3_SECRET: "s3-secret-example",
      SHOP_BACKUP_S3_FORCE_PATH_STYLE: "true",
    };
    const pinned = await withPocketBase(dataDir, s3Env, backupsSettings);
    expect(pinned).toMatchObject({
      cron: "30 1 * * *",
      cronMaxKeep: 14,
      s3: {
        enabled: true,
        bucket: "shop-backups",
        region: "eu-central-1",
        endpoint: "https://s3.eu-central-1.example.com",
        accessKey: "AKIAEXAMPLE",
        forcePathStyle: true,
      },
    });
    expect(JSON.stringify(pinned)).not.toContain("s3-secret-example");

    // Unset again: the stored values stay. "off" turns the schedule and S3 off.
    expect(await withPocketBase(dataDir, {}, backupsSettings)).toMatchObject({
      cron: "30 1 * * *",
      cronMaxKeep: 14,
      s3: { enabled: true },
    });
    expect(await withPocketBase(dataDir, { SHOP_BACKUP_CRON: "off", SHOP_BACKUP_S3_BUCKET: "off" }, backupsSettings)).toMatchObject({
      cron: "",
      s3: { enabled: false },
    });
  }, 120_000); // five PocketBase starts on one data dir

  it("refuses to start on a wrong SHOP_BACKUP_* value, naming it", async () => {
    await expect(withPocketBase(tempDir("bad-cron"), { SHOP_BACKUP_CRON: "every night" }, backupsSettings)).rejects.toThrow(
      /SHOP_BACKUP_\* settings were refused.*cron/s,
    );
    await expect(withPocketBase(tempDir("bad-keep"), { SHOP_BACKUP_KEEP: "0" }, backupsSettings)).rejects.toThrow(
      /SHOP_BACKUP_KEEP must be a whole number from 1 to 1000, got "0"/,
    );
  });
});

describe("a backup made through the API", () => {
  it("is a zip of the data dir holding data.db, without the credentials key or any secret in clear", async () => {
    const dataDir = path.join(LAYOUT, "pb_data");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, ".superuser-password"), SUPERUSER.password, { mode: 0o600 });
    const tpb = await testPocketBaseOn(dataDir, {});
    try {
      const shop = await shopClients(tpb);
      await addStock(shop, { type: "DATACENTER", country: "DE", count: 3 });
      const buyer = await customer(shop, 10_000);
      const order = await purchase(buyer.pb, { type: "DATACENTER", country: "DE", quantity: 2 });
      const clearPasswords = order.proxies.map((p) => p["password"]);
      expect(clearPasswords.every((p) => p.length >= 8)).toBe(true);

      const su = shop.su;
      await su.backups.create("drill.zip");
      const list = await su.backups.getFullList();
      expect(list.map((b) => b.key)).toContain("drill.zip");
      const token = await su.files.getToken();
      const res = await fetch(su.backups.getDownloadURL(token, "drill.zip"));
      expect(res.status).toBe(200);
      const zip = Buffer.from(await res.arrayBuffer());
      expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");

      const entries = readZip(zip);
      const names = entries.map((e) => e.name);
      expect(names).toContain("data.db");
      // Only PocketBase's own files: a secret dropped into the data dir shows up here.
      for (const name of names) expect(name).toMatch(/^(data|auxiliary)\.db(-wal|-shm)?$|^types\.d\.ts$|^storage\//);
      expect(names).not.toContain(".superuser-password");
      for (const entry of entries) {
        for (const secret of [KEY, SUPERUSER.password, ...clearPasswords]) {
          expect(entry.data.includes(secret), `${entry.name} holds a secret in clear`).toBe(false);
        }
      }

      // data.db is a sound SQLite database holding the purchase.
      const out = tempDir("extract");
      extractZip(zip, out);
      const check = execFileSync("python3", [
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA integrity_check').fetchone()[0]); print(c.execute('SELECT count(*) FROM proxy_orders').fetchone()[0])",
        path.join(out, "data.db"),
      ]).toString();
      expect(check.trim().split("\n")).toEqual(["ok", "1"]);
    } finally {
      await tpb.process.stop();
    }
    // The superuser password file stayed where it was.
    expect(readdirSync(dataDir)).toContain(".superuser-password");
  });
});

describe("the backup command (server/backup-restore.ts)", () => {
  it("finding 13: two backups of a running shop in the same second both succeed, as two zips", async () => {
    const tpb = await testPocketBaseOn(tempDir("two-backups"), {});
    try {
      const outDir = tempDir("two-backups-out");
      const env = { PB_SUPERUSER_EMAIL: SUPERUSER.email, PB_SUPERUSER_PASSWORD: SUPERUSER.password };
      // As a cron's `backup` beside a manual one: both at once, so within one second.
      const made = await Promise.all([1, 2].map(() => backupDataDir({ dataDir: tpb.dataDir, outDir, env })));
      expect(made.map((m) => m.running)).toEqual([true, true]);
      const names = made.map((m) => path.basename(m.file));
      expect(new Set(names).size).toBe(2);
      for (const name of names) expect(name).toMatch(/^proxyshop-backups-two-backups-\w+-backup-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{6}\.zip$/);
      expect(readdirSync(outDir).sort()).toEqual([...names].sort());
      for (const m of made) expect(readZip(readFileSync(m.file)).map((e) => e.name)).toContain("data.db");
      // Neither is left in the data dir's own backups folder.
      expect(await (await tpb.superuser()).backups.getFullList()).toEqual([]);
    } finally {
      await tpb.stop();
    }
  });
});

describe("a restore through the dashboard while Litestream replicates", () => {
  it("is refused, and the data dir stays as it is, with the reason in PocketBase's log", async () => {
    const tpb = await testPocketBaseOn(tempDir("replicating"), { SHOP_LITESTREAM_REPLICA: "/srv/replica" });
    try {
      const su = await tpb.superuser();
      await su.backups.create("before.zip");
      const later = await su.collection("contact_messages").create({
        name: "After Backup",
        email: "after@example.com",
        subject: "Written after the backup",
        message: "This row is not in the backup.",
        type: "general",
      });
      await su.backups.restore("before.zip"); // PocketBase answers 204 and restores in the background
      await expect
        .poll(
          async () => (await su.logs.getList(1, 20, { filter: 'message ~ "restore"' })).items.map((l) => JSON.stringify(l.data)).join("\n"),
          {
            timeout: 10_000,
          },
        )
        .toContain("Restoring a backup in place is off while Litestream replicates this data dir to /srv/replica");
      expect((await su.collection("contact_messages").getOne(later.id)).id).toBe(later.id);
    } finally {
      await tpb.stop();
    }
  });
});
