// The soak load: N customers and an admin working one shop at once for a bounded time, with
// scarce balances and scarce stock so refusals happen, and a record (the Book) of what the
// client was told. Every money request carries an Idempotency-Key; a request that gets no
// answer (connection refused or cut: PocketBase was killed) is "in doubt" and is sent again
// with the same key and body until it gets one, as a real client retries. So at the end every
// request has a definite answer, and the database must hold exactly what was acknowledged.
//
// Choices come from a small seeded PRNG, one stream per actor (customer i, the admin, the
// kill moment), so a failing seed replays the same decisions; the interleaving of actors is
// up to the machine.
import type { Book, OrderAck, Request } from "./book.ts";
import { buyCredits } from "./load-payments.ts";
import { nextKey, send } from "./load-send.ts";
import { call, NoAnswer, Prng, type Answer, type ServerGate } from "./soak-client.ts";

// ---- The shop under load ---------------------------------------------------------------

export interface Place {
  type: "RESIDENTIAL" | "DATACENTER";
  country: string;
  state: string;
  city: string;
}

/** Where the scarce stock is: few places, so customers compete for the same proxies. */
export const PLACES: readonly Place[] = [
  { type: "RESIDENTIAL", country: "US", state: "California", city: "Los Angeles" },
  { type: "RESIDENTIAL", country: "DE", state: "Berlin", city: "" },
  { type: "DATACENTER", country: "US", state: "Texas", city: "" },
  { type: "DATACENTER", country: "GB", state: "England", city: "London" },
];

export interface Actor {
  id: string;
  token: string;
  /** An API-key buyer's key (issue #18): purchases and renewals go through it ("Bearer psk_live_…"). */
  apiKey?: { id: string; token: string; capCents: number };
}

export interface LoadOptions {
  gate: ServerGate;
  book: Book;
  seed: number;
  customers: Actor[];
  admin: Actor;
  /** "stripe": checkouts open a Checkout Session (stripe-mock) and the load delivers the signed webhook. */
  provider: "test" | "stripe";
  webhookSecret?: string;
  /** Set to stop: each actor finishes its current request (and its retries) and returns. */
  stopped: () => boolean;
}

function orderAck(answer: Answer, userId: string): OrderAck {
  const order = answer.body["order"] as Record<string, unknown>;
  const proxies = (answer.body["proxies"] as Record<string, unknown>[]) ?? [];
  const items = (order["items"] as { id: string }[] | undefined) ?? [];
  return {
    id: String(order["id"]),
    userId,
    kind: order["kind"] as "purchase" | "renewal",
    total: Number(order["total_cents"]),
    transactionId: String(order["transaction_id"]),
    proxyIds: items.map((i) => String(i.id)),
    shownProxyIds: proxies.map((p) => String(p["id"])),
  };
}

export async function purchase(options: LoadOptions, actor: Actor, body: Record<string, unknown>, key = nextKey(options, actor)) {
  const res = await send(options, { key, kind: "purchase", userId: actor.id, body }, "/api/v1/proxies/purchase", buyerToken(actor));
  if (res.answer) recordOrder(options.book, res.entry, res.answer, actor.id);
  else checkRefusal(options.book, res.entry, actor);
  return res;
}

/** How a customer buys and renews: with their API key when they have one, else their session. */
function buyerToken(actor: Actor): string {
  return actor.apiKey?.token ?? actor.token;
}

/**
 * A 403 is a key's spend cap (problem code spend_cap_reached, naming the cap), and only a key
 * buyer gets it; the other refusals are the ones load-send.ts expects.
 */
function checkRefusal(book: Book, entry: Request, actor: Actor): void {
  if (entry.state !== "refused" || entry.status !== 403) return;
  if (!actor.apiKey || !/monthly spend cap/.test(entry.message ?? "")) {
    book.problems.push(`${entry.kind} ${entry.key} of ${actor.id} answered 403: ${entry.message}`);
  }
}

function recordOrder(book: Book, entry: Request, answer: Answer, userId: string) {
  const ack = orderAck(answer, userId);
  Object.assign(entry, { order: ack, transactionId: ack.transactionId, cents: -ack.total });
  // The first answer shows every proxy the order sold; a replay only those the buyer still
  // holds (a refund may have put some back in stock, to be sold to someone else), never
  // another one (security review #13, finding 1).
  const shown = ack.shownProxyIds.join();
  if (answer.replayed ? ack.shownProxyIds.some((id) => !ack.proxyIds.includes(id)) : shown !== ack.proxyIds.join()) {
    book.problems.push(`order ${ack.id} showed proxies ${shown} for the ${ack.proxyIds.join()} it sold (replayed: ${answer.replayed})`);
  }
  const { shownProxyIds: _shown, ...same } = ack;
  const earlier = book.orders.get(ack.id);
  if (earlier) {
    const { shownProxyIds: _before, ...was } = earlier;
    if (JSON.stringify(was) !== JSON.stringify(same)) {
      book.problems.push(`order ${ack.id} answered differently on a replay: ${JSON.stringify(earlier)} then ${JSON.stringify(ack)}`);
    }
  }
  book.orders.set(ack.id, ack);
}

/** One customer: buys, renews and buys credits until stopped, one request at a time (in each lane). */
async function customerLoop(options: LoadOptions, actor: Actor, index: number, lane = 0): Promise<void> {
  const rng = Prng.derive(options.seed, lane === 0 ? `customer-${index}` : `customer-${index}-lane-${lane}`);
  const book = options.book;
  while (!options.stopped()) {
    const roll = rng.next();
    if (roll < 0.45) {
      const place = rng.pick(PLACES);
      const body = { type: place.type, country: place.country, state: place.state, city: place.city, quantity: rng.int(1, 3) };
      const first = await purchase(options, actor, body);
      // Now and then the client retries an answered purchase (a lost response): same order back.
      if (first.answer && rng.chance(0.1)) {
        const firstOrder = first.entry.order;
        // The replay is a request of its own in the book (same key): it must not move money again.
        const again = await purchase(options, actor, body, first.entry.key);
        if (!again.answer?.replayed || again.entry.order?.id !== firstOrder?.id) {
          book.problems.push(
            `purchase replay of ${first.entry.key} answered ${again.entry.status} order ${again.entry.order?.id}, first ${firstOrder?.id}`,
          );
        }
      }
    } else if (roll < 0.65) {
      const mine = [...book.orders.values()].filter((o) => o.userId === actor.id && o.kind === "purchase");
      if (mine.length === 0) continue;
      const ids = [...new Set(rng.pick(mine).proxyIds.slice(0, rng.int(1, 2)))].sort();
      const res = await send(
        options,
        { key: nextKey(options, actor), kind: "renewal", userId: actor.id, body: { proxy_ids: ids } },
        "/api/v1/proxies/renew",
        buyerToken(actor),
      );
      if (res.answer) recordOrder(book, res.entry, res.answer, actor.id);
      else checkRefusal(book, res.entry, actor);
    } else if (roll < 0.72) {
      await buyCredits(options, actor, rng);
    } else {
      // A customer reading their balance between actions (load on the read path too).
      try {
        const read = await call(
          options.gate.url,
          "GET",
          `/api/collections/balances/records?filter=${encodeURIComponent(`user_id="${actor.id}"`)}`,
          {
            token: actor.token,
          },
        );
        const items = read.body["items"] as { balance_cents: number }[] | undefined;
        if (read.status !== 200 || items?.length !== 1 || !(items[0] && items[0].balance_cents >= 0)) {
          book.problems.push(`reading the balance of ${actor.id} answered ${read.status}: ${JSON.stringify(read.body)}`);
        }
      } catch (err) {
        if (!(err instanceof NoAnswer)) throw err;
        await options.gate.wait();
      }
    }
  }
}

/** The admin: credits, debits and refunds customers' orders at random, until stopped. */
async function adminLoop(options: LoadOptions, lane: number): Promise<void> {
  const rng = Prng.derive(options.seed, `admin-${lane}`);
  const { admin, book, customers } = options;
  while (!options.stopped()) {
    const roll = rng.next();
    const target = rng.pick(customers);
    if (roll < 0.3) {
      await adjust(options, target.id, "CREDIT", rng.int(1, 8) * 100);
    } else if (roll < 0.55) {
      await adjust(options, target.id, "DEBIT", rng.int(1, 6) * 100);
    } else {
      const orders = [...book.orders.values()];
      if (orders.length === 0) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const order = rng.pick(orders);
      const key = nextKey(options, admin);
      const res = await send(
        options,
        { key, kind: "refund", userId: order.userId, body: { reason: "soak test refund" }, order },
        `/api/admin/orders/${order.id}/refund`,
        admin.token,
      );
      if (res.answer) {
        const tx = res.answer.body["transaction"] as Record<string, unknown> | null;
        Object.assign(res.entry, {
          transactionId: typeof tx?.["id"] === "string" ? tx["id"] : "",
          cents: Number(tx?.["amount_cents"] ?? 0),
        });
        if (!tx || Number(tx["amount_cents"]) !== order.total) {
          book.problems.push(`refund of ${order.id} answered transaction ${JSON.stringify(tx)}, order total ${order.total}`);
        }
      }
    }
  }
}

/** An admin balance adjustment through the console route; recorded in the book. */
export async function adjust(options: LoadOptions, userId: string, type: "CREDIT" | "DEBIT", cents: number) {
  const key = nextKey(options, options.admin);
  const res = await send(
    options,
    {
      key,
      kind: type === "CREDIT" ? "credit" : "debit",
      userId,
      body: { transaction_type: type, amount_cents: cents, description: `soak ${type.toLowerCase()}` },
    },
    `/api/admin/users/${userId}/balance`,
    options.admin.token,
  );
  if (res.answer) {
    const tx = res.answer.body["transaction"] as Record<string, unknown>;
    Object.assign(res.entry, { transactionId: String(tx["id"]), cents: Number(tx["amount_cents"]) });
  }
  return res;
}

/**
 * Runs every customer and `adminLanes` admin loops until `options.stopped()`; resolves when
 * all have finished. An API-key buyer runs `keyLanes` loops at once on the same key, so its
 * purchases race each other for the last of its spend cap.
 */
export async function runLoad(options: LoadOptions, adminLanes = 2, keyLanes = 2): Promise<void> {
  await Promise.all([
    ...options.customers.flatMap((c, i) => Array.from({ length: c.apiKey ? keyLanes : 1 }, (_, lane) => customerLoop(options, c, i, lane))),
    ...Array.from({ length: adminLanes }, (_, lane) => adminLoop(options, lane)),
  ]);
}

/** Counts of answers by kind and state, for the test's log and its "refusals happened" checks. */
export function tally(book: Book): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of book.requests.values()) {
    const name = `${r.kind}.${r.state}${r.state === "refused" ? `.${r.status}` : ""}`;
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}
