// The restore drills' machinery for restore.test.ts: PocketBase and Litestream processes on
// temporary dirs, a purchase load, fake S3, and the checks every restored data dir must pass.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PocketBase, { ClientResponseError } from "pocketbase";
import { expect } from "vitest";
import { restoreFromReplica, startLitestream, type Replica } from "../../../server/litestream.ts";
import { adminSend } from "../../support/admin.ts";
import { startTestPocketBase, type TestPocketBase, fieldErrorsOf } from "../../support/pocketbase.ts";
import { customer, purchase, shopClients, type Customer, type Shop } from "../../support/shop.ts";
import { startFakeS3, type FakeS3 } from "../../support/fake-s3.ts";
import { extractZip } from "../../../server/zip.ts";
import { checkMoneyInvariants, integrityCheck } from "./invariants.ts";

const FULL = process.env["SOAK_PROFILE"] === "full";
// Each worker pauses between purchases so the load can never sell out the stock, however
// fast the machine: at most concurrency x loadMs / pauseMs purchases of 1-3 proxies (short:
// 240 x 2 on average of 1,000; full: 1,200 x 2 of 4,000). A drill must go on buying after
// the backup, and buy once more after the restore.
export const PROFILE = FULL
  ? { customers: 30, fundCents: 50_000, stockBatches: 4, concurrency: 12, loadMs: 20_000, pauseMs: 200 }
  : { customers: 4, fundCents: 50_000, stockBatches: 1, concurrency: 6, loadMs: 4_000, pauseMs: 100 };
/** Litestream ships within about a second; this is how much before a loss may be missing. */
const LAG_ALLOWED_MS = 2_000;

const dirs: string[] = [];
export function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `proxyshop-restore-${name}-`));
  dirs.push(dir);
  return dir;
}
const running: { stop(): Promise<void> }[] = [];

/** Stops every process the drills started and removes their directories. */
export async function cleanUpDrills(): Promise<void> {
  for (const process of running) await process.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** PocketBase on `dataDir` (the test credentials key: a restored dir needs the same key). */
export async function pocketBaseOn(dataDir: string, env: Record<string, string> = {}): Promise<TestPocketBase> {
  const tpb = await startTestPocketBase({ SHOP_BACKUP_CRON: "off", ...env }, { dataDir });
  running.push(tpb);
  return tpb;
}

/** Stock (DATACENTER, US) and funded, signed-in customers. */
export async function openShop(tpb: TestPocketBase): Promise<{ shop: Shop; customers: Customer[] }> {
  const shop = await shopClients(tpb);
  for (let i = 0; i < PROFILE.stockBatches; i++) {
    await adminSend(shop.admin, "/api/admin/proxies/generate", { type: "DATACENTER", country: "US", quantity: 1000 });
  }
  const customers: Customer[] = [];
  for (let i = 0; i < PROFILE.customers; i += 4) {
    const batch = Array.from({ length: Math.min(4, PROFILE.customers - i) }, () => customer(shop, PROFILE.fundCents));
    customers.push(...(await Promise.all(batch)));
  }
  return { shop, customers };
}

interface Ack {
  orderId: string;
  at: number;
}

/** The shop's own "no" to a purchase: the balance or the stock does not cover it. */
function isRefusal(err: unknown): boolean {
  if (!(err instanceof ClientResponseError)) return false;
  const fields = Object.values((fieldErrorsOf(err) ?? {}) as Record<string, { code?: string }>);
  return fields.some((f) => f.code === "insufficient_balance" || f.code === "insufficient_stock");
}

/** Purchases by random customers from `concurrency` workers until stopped. */
export function purchaseLoad(customers: Customer[], concurrency: number) {
  const acks: Ack[] = [];
  /** Refusals (no balance or stock left): a normal answer. */
  let refused = 0;
  /** Any other failure: an error status, or no answer at all (after a kill). */
  const failures: { status: number; message: string; at: number }[] = [];
  let stopped = false;
  const worker = async () => {
    while (!stopped) {
      const buyer = customers[Math.floor(Math.random() * customers.length)]!;
      try {
        const res = await purchase(buyer.pb, { type: "DATACENTER", country: "US", quantity: 1 + Math.floor(Math.random() * 3) });
        acks.push({ orderId: res.order.id, at: Date.now() });
      } catch (err) {
        if (isRefusal(err)) refused++;
        else failures.push({ status: err instanceof ClientResponseError ? err.status : -1, message: String(err), at: Date.now() });
        if (err instanceof ClientResponseError && err.status === 0) await sleep(20); // no answer: PocketBase is gone
      }
      await sleep(PROFILE.pauseMs);
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    acks,
    failures,
    refused: () => refused,
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

/** One column of a query on a data.db (read-only, python3's sqlite3). */
export function column(dbFile: string, sql: string): Promise<string[]> {
  const program = [
    "import json, sqlite3, sys, urllib.parse",
    "con = sqlite3.connect('file:' + urllib.parse.quote(sys.argv[1]) + '?mode=ro', uri=True)",
    "sys.stdout.write(json.dumps([r[0] for r in con.execute(sys.argv[2]).fetchall()]))",
  ].join("\n");
  return new Promise((resolve, reject) =>
    execFile("python3", ["-c", program, dbFile, sql], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(stderr || err.message)) : resolve(JSON.parse(stdout) as string[]),
    ),
  );
}

/**
 * Downloads the backup `key` through the API (a superuser's file token) and unzips it into a
 * fresh pb_data under tempDir(`dirName`); answers that directory.
 */
export async function downloadBackup(su: PocketBase, key: string, dirName: string): Promise<string> {
  const token = await su.files.getToken();
  const res = await fetch(su.backups.getDownloadURL(token, key));
  expect(res.status).toBe(200);
  const restored = path.join(tempDir(dirName), "pb_data");
  mkdirSync(restored);
  expect(extractZip(Buffer.from(await res.arrayBuffer()), restored)).toContain("data.db");
  return restored;
}

/**
 * Integrity and invariants on the restored data.db; then PocketBase starts on it, counts
 * the same orders, and the sessions made before the loss still work: the admin credits a
 * customer, who buys.
 */
export async function expectSoundRestore(
  restoredDir: string,
  expectedOrders: number,
  sessions: { admin: PocketBase; buyer: Customer },
): Promise<void> {
  const db = path.join(restoredDir, "data.db");
  expect(await integrityCheck(db)).toBe("ok");
  const report = await checkMoneyInvariants(db);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.ledgerRows).toBeGreaterThan(0);

  const tpb = await pocketBaseOn(restoredDir);
  try {
    const resume = (from: PocketBase) => {
      const pb = tpb.client();
      pb.authStore.save(from.authStore.token, from.authStore.record);
      return pb;
    };
    const admin = resume(sessions.admin);
    const buyer = resume(sessions.buyer.pb);
    expect((await admin.collection("proxy_orders").getList(1, 1)).totalItems).toBe(expectedOrders);
    await admin.send(`/api/admin/users/${sessions.buyer.id}/balance`, {
      method: "POST",
      body: { transaction_type: "CREDIT", amount_cents: 1_000, description: "after the restore" },
      headers: { "Idempotency-Key": randomUUID() },
    });
    const res = await purchase(buyer, { type: "DATACENTER", country: "US", quantity: 1 });
    expect(res.order["total_cents"]).toBeGreaterThan(0);
  } finally {
    await tpb.stop();
  }
  const after = await checkMoneyInvariants(db);
  expect(after.problems).toEqual([]);
}

export async function fakeS3(): Promise<FakeS3> {
  const s3 = await startFakeS3();
  running.push(s3);
  return s3;
}

/**
 * Litestream's environment for `s3`. AWS_CA_BUNDLE goes: with it set (as on some build
 * machines) Litestream 0.5.18 refuses to start ("unable to add custom RootCAs HTTPClient").
 */
export function s3Env(s3: FakeS3): NodeJS.ProcessEnv {
  const { AWS_CA_BUNDLE: _ignored, ...env } = process.env;
  return { ...env, AWS_ACCESS_KEY_ID: s3.accessKey, AWS_SECRET_ACCESS_KEY: s3.secret };
}

/**
 * Litestream replicates to `replica` while purchases run; the machine dies (both processes
 * SIGKILLed at once); the replica restores into a fresh data dir that holds every purchase
 * acknowledged more than LAG_ALLOWED_MS before the loss and is sound.
 */
export async function litestreamDrill(replica: Replica, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const tpb = await pocketBaseOn(path.join(tempDir("litestream-source"), "pb_data"));
  const litestream = await startLitestream({ dataDir: tpb.dataDir, replica, metaDir: tempDir("litestream-meta"), env });
  running.push(litestream);
  const { shop, customers } = await openShop(tpb);
  const load = purchaseLoad(customers, PROFILE.concurrency);
  let killedAt = 0;
  try {
    await sleep(PROFILE.loadMs / 2);
    // PocketBase checkpoints the WAL itself (TRUNCATE) while it makes a backup.
    const asked = performance.now();
    await shop.su.backups.create("beside-litestream.zip");
    // With PocketBase's default deferred transactions, that checkpoint waited for
    // Litestream's read lock until the 10 s busy timeout, holding up every write.
    console.log(`litestream drill: a PocketBase backup beside Litestream took ${(performance.now() - asked).toFixed(0)} ms`);
    await sleep(PROFILE.loadMs / 2);

    // The machine is lost: both processes die in the same instant, nothing flushed.
    killedAt = Date.now();
    tpb.process.child.kill("SIGKILL");
    litestream.child.kill("SIGKILL");
    await load.stop();
  } finally {
    await load.stop();
    await tpb.stop();
    await litestream.stop();
  }
  // The backup made beside Litestream is sound too.
  const backupDir = tempDir("beside-litestream");
  extractZip(readFileSync(path.join(tpb.dataDir, "backups", "beside-litestream.zip")), backupDir);
  expect(await integrityCheck(path.join(backupDir, "data.db"))).toBe("ok");
  expect((await checkMoneyInvariants(path.join(backupDir, "data.db"))).problems).toEqual([]);

  const beforeKill = load.failures.filter((f) => f.at < killedAt);
  expect(beforeKill, "purchases that failed while Litestream replicated").toEqual([]);
  expect(load.acks.length).toBeGreaterThan(0);

  const restored = path.join(tempDir("litestream-restored"), "pb_data");
  mkdirSync(restored);
  await restoreFromReplica(replica, path.join(restored, "data.db"), env);
  const ids = new Set(await column(path.join(restored, "data.db"), "SELECT id FROM proxy_orders"));
  const due = load.acks.filter((a) => a.at < killedAt - LAG_ALLOWED_MS);
  const missing = due.filter((a) => !ids.has(a.orderId)).map((a) => ({ ...a, msBeforeKill: killedAt - a.at }));
  const lost = load.acks.filter((a) => !ids.has(a.orderId));
  const newestKept = Math.max(0, ...load.acks.filter((a) => ids.has(a.orderId)).map((a) => a.at));
  const oldestLost = Math.min(killedAt, ...lost.map((a) => a.at));
  console.log(
    `litestream drill (${replica.kind}): ${load.acks.length} purchases acknowledged, ${ids.size} in the replica; ` +
      (lost.length ? `the ${lost.length} not in it were acknowledged within ${killedAt - oldestLost} ms of the kill; ` : "none lost; ") +
      `the newest kept was acknowledged ${killedAt - newestKept} ms before the kill, the newest of all ${killedAt - Math.max(...load.acks.map((a) => a.at))} ms`,
  );
  expect(missing, `purchases acknowledged more than ${LAG_ALLOWED_MS} ms before the kill, missing from the replica`).toEqual([]);
  expect(due.length).toBeGreaterThan(0);
  await expectSoundRestore(restored, ids.size, { admin: shop.admin, buyer: customers[0]! });
}
