// `npm run bench:chat`: chat delivery latency. p95 from a staff reply's creation to its
// arrival at the customer's open support page, with 200 and with 1,000 subscribed
// realtime clients (goals 30 ms and 100 ms), next to the same figure with one subscribed
// client measured in the same run (the floor: no fan-out, no crowd).
//
// The fan-out, as it really is: a ticket's messages may be seen by its one customer and by
// staff (the view rule), so one message never reaches a thousand people; what grows with
// the crowd is PocketBase's work per message. For every event it walks every connected
// client and, for each subscription on that collection, runs the rule and the client's
// filter as a query (apis/realtime.go realtimeBroadcastRecord). So the crowd is N clients
// that each subscribe exactly like the real pages (scripts/bench/chat-clients.ts): N - 5
// customers, each on /dashboard/support with their own ticket open, and 5 staff on
// /console/support (live inbox of every ticket, one conversation open). A staff member
// replies through the records API as the console does, round-robin over the customers'
// tickets, one reply every BENCH_CHAT_INTERVAL_MS (open loop). Each reply also moves its
// ticket (an update event checked against every client's ticket subscriptions) and is
// mailed to the customer (to an SMTP sink on loopback), as in production.
//
// Latency is measured on this machine's one clock from two starts, both reported:
// - "from send": the sender's time just before the create call, to the arrival in the
//   client's SDK callback. This is what a person sees (reply sent to reply shown),
//   including the HTTP create through the public port. The goal is judged on it.
// - "from created": the record's `created` (set by PocketBase before the insert; 1 ms
//   resolution) to the arrival: the commit, the hooks and the broadcast.
// "reply create answered" is how long the sender's create call took: when it grows past
// the interval between replies, PocketBase can no longer keep up and replies queue.
// Clients live in BENCH_CHAT_PROCS child processes (each reports its event-loop delay, so
// the table shows whether the clients themselves were a bottleneck). PocketBase and the
// web server (the shop) are pinned to core 0, clients and sender to core 1.
import PocketBase from "pocketbase";
import { startMailSink } from "../server/mail-sink.ts";
import type { Arrival, ClientSpec, SendRecord } from "./bench/chat-clients.ts";
import { describe, latencies, ms, type LevelResult } from "./bench/chat-results.ts";
import { SEED_ROUTE, SENDER, type SeededCrowd } from "./bench/chat-seed.ts";
import { startWorker, type Worker } from "./bench/chat-workers.ts";
import { benchHooks } from "./bench/hooks.ts";
import { pin } from "./bench/load.ts";
import { isMain, runAlone } from "./bench/run.ts";
import { BENCH_SUPERUSER, startBenchShop } from "./bench/shop.ts";
import { num, type BenchRow, type BenchSection } from "./bench/table.ts";

const MESSAGES = Number(process.env["BENCH_CHAT_MESSAGES"] ?? 200);
const INTERVAL_MS = Number(process.env["BENCH_CHAT_INTERVAL_MS"] ?? 250);
const PROCS = Number(process.env["BENCH_CHAT_PROCS"] ?? 4);
const STAFF = 5;
const LEVELS: ReadonlyArray<{ clients: number; goalMs: number | null }> = [
  { clients: 1, goalMs: null },
  { clients: 200, goalMs: 30 },
  { clients: 1000, goalMs: 100 },
];

async function runChatBench(log: (line: string) => void = (line) => console.log(line)): Promise<BenchRow[]> {
  const sink = await startMailSink({ keep: 50 });
  const hooks = benchHooks(SEED_ROUTE);
  const workers: Worker[] = [];
  let shop: Awaited<ReturnType<typeof startBenchShop>> | undefined;
  try {
    shop = await startBenchShop({
      hooksDir: hooks.dir,
      env: { SMTP_HOST: sink.host, SMTP_PORT: String(sink.port), SMTP_TLS: "false", MAIL_FROM: "support@bench.local" },
    });
    const pinned = pin(shop.pocketbase.child.pid!, 0) && pin(process.pid, 0);

    const su = new PocketBase(shop.pocketbase.url);
    su.autoCancellation(false);
    await su.collection("_superusers").authWithPassword(BENCH_SUPERUSER.email, BENCH_SUPERUSER.password);
    const sender = await su.collection("users").create({
      email: SENDER.email,
      password: SENDER.password,
      passwordConfirm: SENDER.password,
      verified: true,
      is_admin: true,
      first_name: "Sam",
      last_name: "Support",
    });
    const senderToken = (await su.collection("users").impersonate(sender.id, 3600)).authStore.token;
    const maxClients = Math.max(...LEVELS.map((l) => l.clients));
    const seeded = await su.send<SeededCrowd>("/api/bench/chat-seed", { method: "POST", body: { customers: maxClients, staff: STAFF } });

    const senderWorker = startWorker();
    workers.push(senderWorker);
    for (let i = 0; i < PROCS; i++) workers.push(startWorker());
    const clientWorkers = workers.slice(1);
    const loadPinned = workers.every((w) => pin(w.child.pid!, 1));
    log(
      `${pinned && loadPinned ? "PocketBase and the web server pinned to core 0, clients and sender to core 1" : "not pinned (taskset missing or 1 core)"}; ` +
        `${MESSAGES} replies per level, one every ${INTERVAL_MS} ms; clients in ${PROCS} processes`,
    );

    const send = (ticketIds: string[], label: string) =>
      senderWorker.request(
        { type: "send", url: shop!.url, token: senderToken, senderId: sender.id, ticketIds, intervalMs: INTERVAL_MS, label },
        "sent",
      );

    const results: LevelResult[] = [];
    for (const level of LEVELS) {
      const staffCount = level.clients > STAFF ? STAFF : 0;
      const customers = seeded.customers.slice(0, level.clients - staffCount);
      const specs: ClientSpec[] = [
        ...customers.map((c): ClientSpec => ({ kind: "customer", ...c })),
        // Staff each have some customer's conversation open.
        ...seeded.staff
          .slice(0, staffCount)
          .map((s, i): ClientSpec => ({ kind: "staff", token: s.token, ticketId: customers[(i * 37) % customers.length]!.ticketId })),
      ];
      const t0 = performance.now();
      const connected = await Promise.all(
        clientWorkers.map((w, wi) =>
          w.request(
            {
              type: "connect",
              url: shop!.url,
              clients: specs.map((spec, index) => ({ index, spec })).filter((_, index) => index % clientWorkers.length === wi),
            },
            "connected",
          ),
        ),
      );
      const connectFailed = connected.reduce((n, c) => n + c.failed, 0);
      log(
        `${level.clients} clients subscribed in ${((performance.now() - t0) / 1000).toFixed(1)} s` +
          (connectFailed ? ` (${connectFailed} failed: ${connected.find((c) => c.firstError)?.firstError})` : ""),
      );

      // Warm-up (JS VM pool, statement caches, connections), not measured.
      await send(
        customers.slice(0, 20).map((c) => c.ticketId),
        "warm-up",
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      await Promise.all(clientWorkers.map((w) => w.request({ type: "reset" }, "reset")));

      const plan = Array.from({ length: MESSAGES }, (_, i) => customers[i % customers.length]!.ticketId);
      const { sends } = await send(plan, `level ${level.clients}`);
      // Who may see each ticket's messages and is subscribed to them: its customer and the staff who have it open.
      const watchers = new Map<string, number>();
      for (const spec of specs) watchers.set(spec.ticketId, (watchers.get(spec.ticketId) ?? 0) + 1);
      const ok = sends.filter((s) => s.id);
      const expected = ok.reduce((n, s) => n + (watchers.get(s.ticketId) ?? 0), 0);
      let arrivals: Arrival[] = [];
      let loopDelayP99 = 0;
      let loopDelayMax = 0;
      // Let the last replies arrive (up to 10 s).
      for (let waited = 0; waited < 10_000; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const collected = await Promise.all(clientWorkers.map((w) => w.request({ type: "collect" }, "arrivals")));
        arrivals = collected.flatMap((c) => c.arrivals);
        loopDelayP99 = Math.max(...collected.map((c) => c.loopDelayP99));
        loopDelayMax = Math.max(...collected.map((c) => c.loopDelayMax));
        if (arrivals.length >= expected && waited >= 500) break;
      }
      await Promise.all(clientWorkers.map((w) => w.request({ type: "disconnect" }, "disconnected")));

      const byId = new Map<string, SendRecord>(ok.map((s) => [s.id, s]));
      const fromSend: number[] = [];
      const fromCreated: number[] = [];
      for (const [id, at] of arrivals) {
        const s = byId.get(id);
        if (!s) continue; // a warm-up reply arriving late
        fromSend.push(at - s.sentAt);
        fromCreated.push(at - s.created);
      }
      const result: LevelResult = {
        clients: level.clients,
        connectFailed,
        sent: sends.length,
        sendErrors: sends.length - ok.length,
        expected,
        delivered: fromSend.length,
        fromSend: latencies(fromSend),
        fromCreated: latencies(fromCreated),
        createAnswer: latencies(ok.map((s) => s.answeredAt - s.sentAt)),
        loopDelayP99,
        loopDelayMax,
      };
      results.push(result);
      log(`${level.clients} clients: ${describe(result)}`);
      if (result.sendErrors) log(`  first send error: ${sends.find((s) => s.error)?.error}`);
    }

    const reference = results[0]!;
    const refText = `1 subscribed client: p95 ${ms(reference.fromSend.p95)} from send, ${ms(reference.fromCreated.p95)} from created`;
    return results.map((r, i): BenchRow => {
      const goal = LEVELS[i]!.goalMs;
      const complete = r.delivered === r.expected && r.sendErrors === 0 && r.connectFailed === 0 && r.expected > 0;
      return {
        figure:
          r.clients === 1
            ? "chat reply to the customer's open page, 1 subscribed client (reference)"
            : `chat reply to the customer's open page, ${num(r.clients)} subscribed clients (${num(r.clients - STAFF)} customers, ${STAFF} staff)`,
        goal: goal === null ? "all delivered" : `p95 < ${goal} ms from send, all delivered`,
        measured: describe(r),
        reference: goal === null ? "" : refText,
        pass: goal === null ? (complete ? null : false) : complete && r.fromSend.p95 < goal,
        kind: "timing",
      };
    });
  } finally {
    for (const w of workers) w.child.kill();
    await shop?.stop();
    hooks.remove();
    await sink.stop();
  }
}

export const chatBench: BenchSection = {
  title: "Chat delivery (realtime through the public port)",
  run: () => runChatBench(),
};

if (isMain(import.meta.url)) await runAlone(chatBench);
