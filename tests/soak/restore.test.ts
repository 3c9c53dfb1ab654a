// Restore drills: what an operator does after losing the data, done for real under load.
// 1. A PocketBase backup taken while purchases run, downloaded through the API, unzipped
//    into a fresh data dir: `PRAGMA integrity_check` ok, the money invariants hold, every
//    purchase acknowledged before the backup was asked for is in it, and PocketBase starts
//    on it and sells.
// 2. Litestream replicating while purchases run (and a PocketBase backup checkpoints the
//    WAL in the middle), then the machine is lost: PocketBase and Litestream killed with
//    SIGKILL in the same instant. `litestream restore` into a fresh dir: integrity ok, the
//    invariants hold, every purchase acknowledged more than LAG_ALLOWED_MS before the kill
//    is there, no purchase failed while Litestream ran (Litestream commits its own rows to
//    data.db: PocketBase needs BEGIN IMMEDIATE transactions, or a purchase between its
//    first read and first write fails with "database is locked (517)"), and PocketBase
//    starts on it.
// 3. The same Litestream drill with an S3 replica (gofakes3 on loopback, a real S3 protocol),
//    and PocketBase's own backups written to the bucket SHOP_BACKUP_S3_* names, then restored.
// `npm test` runs a short load (about 30 s for both); SOAK_PROFILE=full a longer, busier one.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseReplica } from "../../server/litestream.ts";
import {
  cleanUpDrills,
  column,
  downloadBackup,
  expectSoundRestore,
  fakeS3,
  litestreamDrill,
  openShop,
  pocketBaseOn,
  PROFILE,
  purchaseLoad,
  s3Env,
  sleep,
  tempDir,
} from "./support/restore-drills.ts";

afterAll(cleanUpDrills);

describe("restore drills", () => {
  it("restores a PocketBase backup taken under load into a fresh data dir", async () => {
    const tpb = await pocketBaseOn(path.join(tempDir("backup-source"), "pb_data"));
    const { shop, customers } = await openShop(tpb);
    const load = purchaseLoad(customers, PROFILE.concurrency);
    try {
      await sleep(PROFILE.loadMs / 2);
      const ackedBefore = load.acks.length;
      const asked = performance.now();
      await shop.su.backups.create("under-load.zip");
      const backupMs = performance.now() - asked;
      const ackedAtBackup = load.acks.slice(0, ackedBefore);
      await sleep(PROFILE.loadMs / 2);
      await load.stop();
      console.log(
        `backup drill: ${load.acks.length} purchases acknowledged (${ackedBefore} before the backup), ${load.refused()} refused; backup took ${backupMs.toFixed(0)} ms`,
      );
      expect(load.failures).toEqual([]);
      expect(ackedBefore).toBeGreaterThan(0);
      expect(load.acks.length).toBeGreaterThan(ackedBefore); // purchases went on after it

      const restored = await downloadBackup(shop.su, "under-load.zip", "backup-restored");

      const ids = new Set(await column(path.join(restored, "data.db"), "SELECT id FROM proxy_orders"));
      const missing = ackedAtBackup.filter((a) => !ids.has(a.orderId));
      expect(missing, "purchases acknowledged before the backup was asked for, missing from it").toEqual([]);
      // It is one moment of the shop: nothing it holds was made after it.
      expect(ids.size).toBeLessThanOrEqual(load.acks.length);
      await expectSoundRestore(restored, ids.size, { admin: shop.admin, buyer: customers[0]! });
    } finally {
      await load.stop();
      await tpb.stop();
    }
  });

  it("restores a Litestream replica after the machine dies (kill -9) in the middle of purchases", async () => {
    await litestreamDrill(parseReplica(`file://${tempDir("replica")}`));
  });

  it("does the same with an S3 replica", async () => {
    const s3 = await fakeS3();
    const replica = parseReplica(
      `s3://${s3.bucket}/litestream?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}&forcePathStyle=true`,
    );
    await litestreamDrill(replica, s3Env(s3));
    expect((await s3.keys("litestream/")).some((key) => key.endsWith(".ltx"))).toBe(true);
  });

  it("writes PocketBase's own backups to the S3 bucket SHOP_BACKUP_S3_* names, and restores one", async () => {
    const s3 = await fakeS3();
    const tpb = await pocketBaseOn(path.join(tempDir("s3-backup-source"), "pb_data"), {
      SHOP_BACKUP_S3_BUCKET: s3.bucket,
      SHOP_BACKUP_S3_REGION: s3.region,
      SHOP_BACKUP_S3_ENDPOINT: s3.endpoint,
      SHOP_BACKUP_S3_ACCESS_KEY: s3.accessKey,
      SHOP_BACKUP_S3_SECRET: s3.secret,
      SHOP_BACKUP_S3_FORCE_PATH_STYLE: "true",
    });
    const { shop, customers } = await openShop(tpb);
    try {
      const load = purchaseLoad(customers, PROFILE.concurrency);
      await sleep(PROFILE.loadMs / 2);
      await shop.su.backups.create("to-s3.zip");
      await load.stop();
      expect(load.failures).toEqual([]);
      // In the bucket, not on the machine's disk, and listed by PocketBase from there.
      expect((await s3.keys()).filter((key) => key.endsWith("to-s3.zip"))).toHaveLength(1);
      expect(existsSync(path.join(tpb.dataDir, "backups", "to-s3.zip"))).toBe(false);
      expect((await shop.su.backups.getFullList()).map((b) => b.key)).toContain("to-s3.zip");

      const restored = await downloadBackup(shop.su, "to-s3.zip", "s3-backup-restored");
      const orders = (await column(path.join(restored, "data.db"), "SELECT id FROM proxy_orders")).length;
      expect(orders).toBeGreaterThan(0);
      await expectSoundRestore(restored, orders, { admin: shop.admin, buyer: customers[0]! });
    } finally {
      await tpb.stop();
    }
  });
});
