// `npm run bench:api`: the developer API (issue #18).
// 1. p50/p95 of GET /api/v1/proxies?limit=50 with an API key for a customer who owns 1,000
//    proxies (goal p95 <= 15 ms), next to the same page through PocketBase's own records
//    API (GET /api/collections/proxies/records, the customer's session) in the same run.
// 2. Webhook delivery latency: the time from a purchase's answer to its purchase.completed
//    delivery reaching a loopback receiver (goal p95 <= 1 s), 30 purchases one after another.
// On 2 cores PocketBase is pinned to core 0 and this load generator to core 1. Exports
// `apiBench` (scripts/bench.ts runs it in the one table); alone it prints its own rows.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import PocketBase from "pocketbase";
import { newCredentialsKey, startPocketBase } from "../server/pocketbase-process.ts";
import { freePort } from "../server/free-port.ts";
import { benchHooks } from "./bench/hooks.ts";
import { fundedBuyer } from "./bench/shop.ts";
import { failures, formatResult as fmt, load, median, pin, quantile, type Result } from "./bench/load.ts";
import { isMain, runAlone } from "./bench/run.ts";
import { num, type BenchRow, type BenchSection } from "./bench/table.ts";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 5);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 3);
const OWNED = 1000;
const LIST_P95_GOAL_MS = 15;
const PURCHASES = Number(process.env["BENCH_WEBHOOK_PURCHASES"] ?? 30);
const DELIVERY_P95_GOAL_MS = 1000;
const SUPERUSER = { email: "superuser@bench.local", password: "Superuser#Bench2026" };

// Bench-only routes: a customer's 1,000 proxies and stock to buy, in one SQL transaction
// each; and a webhook endpoint with a known secret (sealed as the shop seals them).
const SEED_ROUTES = `routerAdd("POST", "/api/bench/proxies", (e) => {
    const body = e.requestInfo().body;
    const n = body["count"];
    const owner = body["owner"] || "";
    const now = new DateTime().string();
    const expires = owner ? new DateTime().addDate(0, 0, 30).string() : "";
    const sealed = require(__hooks + "/lib/core/sealing.js").sealPassword("benchpass");
    e.app.runInTransaction((tx) => {
      for (let i = 0; i < n; i++) {
        tx.db().newQuery("INSERT INTO proxies (id, host, port, username, password_encrypted, type, country, state, city, status, assigned_to_user_id, expires_at, auto_renew, expiry_notice_sent_at, created, updated) VALUES ({:id}, {:host}, {:port}, {:user}, {:sealed}, 'RESIDENTIAL', 'US', 'Bench', '', {:status}, {:owner}, {:expires}, FALSE, '', {:now}, {:now})")
          .bind({ id: $security.randomStringWithAlphabet(15, "abcdefghijklmnopqrstuvwxyz0123456789"), host: "bench.test", port: 1 + i, user: "u" + $security.randomString(10), sealed, status: owner ? "ASSIGNED" : "AVAILABLE", owner, expires, now })
          .execute();
      }
    });
    return e.json(200, { created: n });
  }, $apis.requireSuperuserAuth());
  routerAdd("POST", "/api/bench/webhook", (e) => {
    const body = e.requestInfo().body;
    const queue = require(__hooks + "/lib/webhooks/queue.js");
    const record = new Record(e.app.findCollectionByNameOrId("webhook_endpoints"));
    record.load({ user: body["user"], url: body["url"], events: ["purchase.completed"], secret: queue.sealSecret(body["secret"]), enabled: true });
    e.app.save(record);
    return e.json(200, { id: record.id });
  }, $apis.requireSuperuserAuth());`;

interface Delivery {
  at: number;
  orderId: string;
}

/** A loopback receiver that notes when each delivery arrived, by the order it announces. */
async function startReceiver(): Promise<{ url: string; arrived: Map<string, number>; close(): Promise<void> }> {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const at = performance.now();
      try {
        const event = JSON.parse(body) as { data?: { order?: { id?: string } } };
        const delivery: Delivery = { at, orderId: event.data?.order?.id ?? "" };
        if (delivery.orderId) arrived.set(delivery.orderId, delivery.at);
      } catch {
        // not ours
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, arrived, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function runApiBench(log: (line: string) => void = (line) => console.log(line)): Promise<BenchRow[]> {
  const hooks = benchHooks(SEED_ROUTES);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-bench-api-"));
  const rows: BenchRow[] = [];
  const receiver = await startReceiver();
  try {
    const pbProcess = await startPocketBase({
      dataDir,
      port: await freePort(),
      superuserEmail: SUPERUSER.email,
      superuserPassword: SUPERUSER.password,
      hooksDir: hooks.dir,
      env: {
        SHOP_RATE_LIMIT_SCALE: "1000",
        API_KEY_RATE_LIMIT: "100000000",
        SHOP_CREDENTIALS_KEY: newCredentialsKey(),
        PAYMENTS_TEST_MODE: "true",
      },
    });
    try {
      const pinned = pin(pbProcess.child.pid!, 0) && pin(process.pid, 1);
      const su = new PocketBase(pbProcess.url);
      su.autoCancellation(false);
      await su.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      await su.collection("users").create({
        email: "admin@bench.local",
        password: "Admin#Bench2026",
        passwordConfirm: "Admin#Bench2026",
        verified: true,
        is_admin: true,
        first_name: "Ben",
        last_name: "Admin",
      });
      const admin = new PocketBase(pbProcess.url);
      admin.autoCancellation(false);
      await admin.collection("users").authWithPassword("admin@bench.local", "Admin#Bench2026");
      const token = await fundedBuyer(pbProcess.url, su, admin, 0, 100_000_000);
      const buyer = new PocketBase(pbProcess.url);
      buyer.autoCancellation(false);
      buyer.authStore.save(token);
      const userId = (await buyer.collection("users").authRefresh()).record.id;
      await su.send("/api/bench/proxies", { method: "POST", body: { count: OWNED, owner: userId } });
      const created = await buyer.send<{ key: string }>("/api/v1/api-keys", {
        method: "POST",
        body: { name: "bench", scopes: ["read", "purchase"] },
      });
      const key = created.key;

      log(
        `PocketBase ${pinned ? "pinned to core 0, load on core 1" : "not pinned (taskset missing or 1 core)"}; ${SECONDS} s per run, median of ${RUNS} runs\n`,
      );
      const apiList = (concurrency: number) =>
        load(pbProcess.url, concurrency, SECONDS, () => ({
          method: "GET",
          path: "/api/v1/proxies?limit=50",
          headers: { authorization: `Bearer ${key}` },
        }));
      const rawList = (concurrency: number) =>
        load(pbProcess.url, concurrency, SECONDS, () => ({
          method: "GET",
          path: "/api/collections/proxies/records?perPage=50&sort=-created&skipTotal=1",
          headers: { authorization: token },
        }));
      await apiList(2);
      await rawList(2); // warm-up
      for (const concurrency of [1, 10]) {
        const apiRuns: Result[] = [];
        const rawRuns: Result[] = [];
        for (let i = 0; i < RUNS; i++) {
          rawRuns.push(await rawList(concurrency));
          apiRuns.push(await apiList(concurrency));
        }
        const api = median(apiRuns);
        const raw = median(rawRuns);
        const failed = apiRuns.reduce((n, r) => n + failures(r), 0);
        log(`${String(concurrency).padStart(2)} concurrent  records API list  ${fmt(raw)}`);
        log(`${String(concurrency).padStart(2)} concurrent  /api/v1/proxies   ${fmt(api)}\n`);
        rows.push({
          figure: `GET /api/v1/proxies?limit=50 with an API key, ${OWNED} owned proxies, ${concurrency} concurrent`,
          goal: concurrency === 1 ? `p95 <= ${LIST_P95_GOAL_MS} ms, no 5xx` : "(under load; no 5xx)",
          measured: `p95 ${num(api.p95, 1)} ms (p50 ${num(api.p50, 1)} ms), ${num(api.perSecond)}/s, ${failed} 5xx/failed`,
          reference: `records API page of 50: p95 ${num(raw.p95, 1)} ms (p50 ${num(raw.p50, 1)} ms), ${num(raw.perSecond)}/s`,
          pass: (concurrency !== 1 || api.p95 <= LIST_P95_GOAL_MS) && failed === 0,
          kind: "timing",
        });
      }

      // Webhook delivery latency after a purchase.
      const secret = `whsec_${Buffer.from(randomUUID()).toString("base64")}`;
      await su.send("/api/bench/webhook", { method: "POST", body: { user: userId, url: receiver.url, secret } });
      await su.send("/api/bench/proxies", { method: "POST", body: { count: PURCHASES } });
      const latencies: number[] = [];
      let missing = 0;
      for (let i = 0; i < PURCHASES; i++) {
        const answer = await buyer.send<{ order: { id: string } }>("/api/v1/proxies/purchase", {
          method: "POST",
          headers: { "Idempotency-Key": randomUUID() },
          body: { type: "RESIDENTIAL", country: "US", quantity: 1 },
        });
        const answered = performance.now();
        const deadline = answered + 5000;
        while (!receiver.arrived.has(answer.order.id) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        const at = receiver.arrived.get(answer.order.id);
        if (at === undefined) missing++;
        else latencies.push(Math.max(0, at - answered));
      }
      latencies.sort((a, b) => a - b);
      const p95 = quantile(latencies, 0.95);
      log(
        `webhook delivery after a purchase: p50 ${num(quantile(latencies, 0.5))} ms, p95 ${num(p95)} ms, ${missing} missing of ${PURCHASES}`,
      );
      rows.push({
        figure: `webhook delivery after a purchase (purchase.completed to a loopback receiver), ${PURCHASES} purchases`,
        goal: `p95 <= ${DELIVERY_P95_GOAL_MS} ms, none missing`,
        measured: `p95 ${num(p95)} ms (p50 ${num(quantile(latencies, 0.5))} ms, max ${num(latencies[latencies.length - 1] ?? 0)} ms), ${missing} missing`,
        reference: "the dispatcher polls every 200 ms",
        pass: p95 <= DELIVERY_P95_GOAL_MS && missing === 0,
        kind: "timing",
      });
    } finally {
      await pbProcess.stop();
    }
  } finally {
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
    hooks.remove();
  }
  return rows;
}

export const apiBench: BenchSection = {
  title: "Developer API (GET /api/v1/proxies with an API key; webhook delivery)",
  run: () => runApiBench(),
};

if (isMain(import.meta.url)) await runAlone(apiBench);
