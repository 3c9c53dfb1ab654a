// A child process of scripts/bench-chat.ts (forked, pinned to the load core): it holds
// realtime clients or sends messages, and reports times on the machine's clock
// (performance.timeOrigin + performance.now(): epoch milliseconds with sub-millisecond
// resolution, comparable between processes of one machine).
//
// Each client is the PocketBase JS SDK the app itself uses (with the npm `eventsource`
// polyfill Node needs), subscribed to exactly the topics the real page subscribes to:
// - a customer on /dashboard/support with their ticket open: the balance in the app shell
//   (stores/balance.ts: balances/<id>), their ticket list (support/stores.ts: the custom
//   topic support/users/<id>), the open conversation (support/conversation-store.ts: the
//   custom topic support/tickets/<id>, pb_hooks/lib/support/support-live.js) and PB_CONNECT
//   (reconnect reload);
// - a staff member on /console/support with a ticket open: the live inbox
//   (console-support/stores.ts: support_tickets/*), and the same conversation store.
// All clients of a process share one event loop; its delay is measured and reported so
// the run shows whether the clients themselves were the bottleneck.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { EventSource } from "eventsource";
import PocketBase from "pocketbase";

(globalThis as { EventSource?: unknown }).EventSource = EventSource;

export type ClientSpec =
  | { kind: "customer"; token: string; userId: string; ticketId: string; balanceId: string }
  | { kind: "staff"; token: string; ticketId: string };

/** [message id, arrival time (epoch ms), client index] */
export type Arrival = [string, number, number];

export interface SendRecord {
  ticketId: string;
  /** The message id ("" when the create failed). */
  id: string;
  /** Just before the create call (epoch ms, this machine's clock). */
  sentAt: number;
  /** The record's `created` as the server set it (epoch ms, millisecond resolution). */
  created: number;
  /** When the create call answered. */
  answeredAt: number;
  error?: string;
}

export type ToWorker =
  | { type: "connect"; url: string; clients: Array<{ index: number; spec: ClientSpec }> }
  | { type: "reset" }
  | { type: "collect" }
  | { type: "disconnect" }
  | { type: "send"; url: string; token: string; senderId: string; ticketIds: string[]; intervalMs: number; label: string }
  | { type: "exit" };

export type FromWorker =
  | { type: "connected"; ok: number; failed: number; firstError: string }
  | { type: "reset" }
  | { type: "arrivals"; arrivals: Arrival[]; loopDelayP99: number; loopDelayMax: number }
  | { type: "disconnected" }
  | { type: "sent"; sends: SendRecord[] };

const now = () => performance.timeOrigin + performance.now();
const noop = () => {};

const clients: PocketBase[] = [];
let arrivals: Arrival[] = [];
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

function reply(message: FromWorker): void {
  process.send!(message);
}

async function connect(url: string, index: number, spec: ClientSpec): Promise<PocketBase> {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  pb.authStore.save(spec.token, null);
  const onEvent = (e: { collection: string; action: string; record: { id: string } }) => {
    if (e.collection === "chat_messages" && e.action === "create") arrivals.push([e.record.id, now(), index]);
  };
  if (spec.kind === "customer") {
    await pb.collection("balances").subscribe(spec.balanceId, noop);
    await pb.realtime.subscribe(`support/users/${spec.userId}`, noop);
  } else {
    await pb.collection("support_tickets").subscribe("*", noop);
  }
  await pb.realtime.subscribe(`support/tickets/${spec.ticketId}`, onEvent);
  await pb.realtime.subscribe("PB_CONNECT", noop);
  return pb;
}

async function connectAll(url: string, specs: Array<{ index: number; spec: ClientSpec }>): Promise<void> {
  let ok = 0;
  let failed = 0;
  let firstError = "";
  const queue = [...specs];
  // A few at a time: a thousand tabs do not open in the same millisecond either.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          clients.push(await connect(url, next.index, next.spec));
          ok++;
        } catch (err) {
          failed++;
          firstError ||= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  reply({ type: "connected", ok, failed, firstError });
}

async function disconnectAll(): Promise<void> {
  for (const pb of clients.splice(0)) pb.realtime.unsubscribe().catch(noop);
  // unsubscribe() closes the stream at once; the POST telling the server is best-effort.
  await new Promise((resolve) => setTimeout(resolve, 200));
  reply({ type: "disconnected" });
}

/** Open loop: message i goes out at start + i * interval, whether or not earlier ones answered. */
async function send(url: string, token: string, senderId: string, ticketIds: string[], intervalMs: number, label: string): Promise<void> {
  const pb = new PocketBase(url);
  pb.autoCancellation(false);
  pb.authStore.save(token, null);
  const start = now() + 20;
  const sends = await Promise.all(
    ticketIds.map(async (ticketId, i): Promise<SendRecord> => {
      const wait = start + i * intervalMs - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const sentAt = now();
      try {
        // What the console's reply box sends (support/api.ts sendMessage).
        const record = await pb.collection("chat_messages").create<{ id: string; created: string }>({
          ticket_id: ticketId,
          sender_id: senderId,
          message: `${label} ${i}: thanks for waiting, your proxies are back online.`,
        });
        return { ticketId, id: record.id, sentAt, created: Date.parse(record.created.replace(" ", "T")), answeredAt: now() };
      } catch (err) {
        return { ticketId, id: "", sentAt, created: NaN, answeredAt: now(), error: describeError(err) };
      }
    }),
  );
  reply({ type: "sent", sends });
}

function describeError(err: unknown): string {
  const response = (err as { response?: unknown }).response;
  return `${err instanceof Error ? err.message : String(err)}${response ? ` ${JSON.stringify(response)}` : ""}`;
}

process.on("message", (message: ToWorker) => {
  switch (message.type) {
    case "connect":
      void connectAll(message.url, message.clients);
      break;
    case "reset":
      arrivals = [];
      loopDelay.reset();
      reply({ type: "reset" });
      break;
    case "collect":
      reply({
        type: "arrivals",
        arrivals,
        loopDelayP99: loopDelay.percentile(99) / 1e6,
        loopDelayMax: loopDelay.max / 1e6,
      });
      break;
    case "disconnect":
      void disconnectAll();
      break;
    case "send":
      void send(message.url, message.token, message.senderId, message.ticketIds, message.intervalMs, message.label);
      break;
    case "exit":
      process.exit(0);
  }
});
process.on("disconnect", () => process.exit(0));
