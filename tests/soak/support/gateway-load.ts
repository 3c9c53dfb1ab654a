// The gateway soak's load (gateway.test.ts): customers send short requests and hold
// long-lived tunnels through the gateway with the credentials they hold (sometimes with ones
// they no longer hold), while customers regenerate and the admin refunds and releases at
// random moments. Every request is recorded beside its credentials' issue and revocation times.
import type { Actor, LoadOptions } from "./load.ts";
import { nextKey, send } from "./load-send.ts";
import { plainRequest, Tunnel, type ClientBytes, type Creds, type Ports } from "./gateway-traffic.ts";
import { call, Prng } from "./soak-client.ts";

export interface Cred extends Creds {
  proxyId: string;
  /** When the shop answered with these credentials (ms). */
  issuedAt: number;
  /** When the call that revokes these credentials was sent / answered (ms). */
  revokeSentAt?: number;
  revokedAt?: number;
  how?: "regenerate" | "refund" | "release";
}

export interface Bought {
  id: string;
  owner: Actor;
  orderId: string;
  cred: Cred;
  /** Refunded or released: no live credentials any more. */
  gone: boolean;
}

export interface Req {
  cred: Cred;
  /** A new connection (its handshake) or one exchange in an open tunnel. */
  kind: "plain" | "connect" | "socks" | "exchange";
  startedAt: number;
  endedAt: number;
  served: boolean;
  /** What came back when not served. */
  answer?: string;
}

export interface GatewayLoad {
  url: string;
  ports: Ports;
  seed: number;
  options: LoadOptions;
  admin: Actor;
  /** The proxies bought, by id, and each order's proxy ids. */
  bought: Map<string, Bought>;
  orderProxies: Map<string, string[]>;
  mix: {
    /** Pause between two revocations (ms, inclusive range). */
    revokeEvery: readonly [number, number];
    /** Regenerate below the first, refund below the second, else release. */
    revokeMix: readonly [number, number];
    /** How often a customer tries credentials it no longer holds. */
    staleChance: number;
  };
  stopped: () => boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a request lane and a tunnel lane per customer and the revoker; `lanes` end once `stopped()`. */
export function startGatewayLoad(ctx: GatewayLoad, customers: Actor[]) {
  const reqs: Req[] = [];
  const allCreds: Cred[] = [...ctx.bought.values()].map((b) => b.cred);
  const client = new Map<string, ClientBytes>();
  const bytesOf = (id: string) => {
    let b = client.get(id);
    if (!b) client.set(id, (b = { sent: 0, received: 0 }));
    return b;
  };
  const released = new Set<string>();
  const problems: string[] = [];
  const revocations = { regenerate: 0, refund: 0, release: 0 };

  /** Credentials for the next request: mostly live ones, sometimes ones the customer no longer holds. */
  const pickCred = (rng: Prng, owner: Actor): Cred | undefined => {
    const mine = [...ctx.bought.values()].filter((b) => b.owner.id === owner.id);
    const live = mine.filter((b) => !b.gone).map((b) => b.cred);
    const stale = allCreds.filter((c) => c.revokeSentAt !== undefined && ctx.bought.get(c.proxyId)!.owner.id === owner.id);
    if (stale.length > 0 && rng.chance(ctx.mix.staleChance)) return rng.pick(stale);
    return live.length > 0 ? rng.pick(live) : undefined;
  };

  /** One exchange of `n` bytes (and `pad`) in an open tunnel, recorded and counted; whether it was served. */
  const exchange = async (tunnel: Tunnel, cred: Cred, n: number, pad: number) => {
    const at = Date.now();
    const ex = await tunnel.exchange(n, pad);
    reqs.push({ cred, kind: "exchange", startedAt: at, endedAt: Date.now(), served: ex.served });
    const bytes = bytesOf(cred.proxyId);
    bytes.sent += ex.sent;
    bytes.received += ex.received;
    return ex.served;
  };

  /** Short requests on new connections, all three ways. */
  const requestLane = async (actor: Actor, i: number) => {
    const rng = Prng.derive(ctx.seed, `gateway-requests-${i}`);
    while (!ctx.stopped()) {
      const cred = pickCred(rng, actor);
      if (!cred) {
        await sleep(50);
        continue;
      }
      const way = rng.pick(["plain", "connect", "socks"] as const);
      const n = rng.int(1, 48) * 1024;
      const startedAt = Date.now();
      const bytes = bytesOf(cred.proxyId);
      if (way === "plain") {
        const r = await plainRequest(ctx.ports, cred, cred.proxyId, n);
        reqs.push({ cred, kind: way, startedAt, endedAt: Date.now(), served: r.served, answer: r.answer });
        bytes.received += r.received;
      } else {
        const { tunnel, answer } = await Tunnel.open(ctx.ports, way, cred, cred.proxyId);
        reqs.push({ cred, kind: way, startedAt, endedAt: Date.now(), served: tunnel !== null, answer });
        if (tunnel) {
          await exchange(tunnel, cred, n, rng.int(0, 8192));
          await tunnel.close();
        }
      }
      await sleep(rng.int(0, 30));
    }
  };

  /** A long-lived tunnel at a time, exchanging frames until it is cut or has done enough. */
  const tunnelLane = async (actor: Actor, i: number) => {
    const rng = Prng.derive(ctx.seed, `gateway-tunnels-${i}`);
    while (!ctx.stopped()) {
      const cred = pickCred(rng, actor);
      if (!cred) {
        await sleep(50);
        continue;
      }
      const way = rng.pick(["connect", "socks"] as const);
      const startedAt = Date.now();
      const { tunnel, answer } = await Tunnel.open(ctx.ports, way, cred, cred.proxyId);
      reqs.push({ cred, kind: way, startedAt, endedAt: Date.now(), served: tunnel !== null, answer });
      if (!tunnel) {
        await sleep(20);
        continue;
      }
      for (let k = rng.int(5, 60); k > 0 && !ctx.stopped(); k--) {
        if (!(await exchange(tunnel, cred, rng.int(256, 16 * 1024), rng.int(0, 4096)))) break;
        await sleep(rng.int(0, 40));
      }
      await tunnel.close();
    }
  };

  /** Customers regenerate, the admin refunds and releases, at random moments. */
  const revoker = async () => {
    const rng = Prng.derive(ctx.seed, "gateway-revoker");
    while (!ctx.stopped()) {
      await sleep(rng.int(...ctx.mix.revokeEvery));
      const alive = [...ctx.bought.values()].filter((b) => !b.gone);
      if (alive.length === 0 || ctx.stopped()) continue;
      const victim = rng.pick(alive);
      // A refund or release that would leave the customer nothing to send through becomes
      // a regeneration, so traffic flows until the end.
      const ownLive = alive.filter((b) => b.owner.id === victim.owner.id).length;
      const orderLive = alive.filter((b) => b.orderId === victim.orderId).length;
      let roll = rng.next();
      if (
        (roll >= ctx.mix.revokeMix[1] && ownLive <= 1) ||
        (roll >= ctx.mix.revokeMix[0] && roll < ctx.mix.revokeMix[1] && ownLive <= orderLive)
      )
        roll = 0;
      if (roll < ctx.mix.revokeMix[0]) {
        const old = victim.cred;
        old.revokeSentAt = Date.now();
        const res = await call(ctx.url, "POST", `/api/v1/proxies/${victim.id}/rotate`, { token: victim.owner.token });
        if (res.status !== 200) {
          problems.push(`regenerate ${victim.id} answered ${res.status}: ${JSON.stringify(res.body)}`);
          delete old.revokeSentAt;
          continue;
        }
        Object.assign(old, { revokedAt: Date.now(), how: "regenerate" });
        victim.cred = {
          proxyId: victim.id,
          username: String(res.body["username"]),
          password: String(res.body["password"]),
          issuedAt: Date.now(),
        };
        allCreds.push(victim.cred);
        revocations.regenerate += 1;
      } else if (roll < ctx.mix.revokeMix[1]) {
        const order = ctx.options.book.orders.get(victim.orderId)!;
        const held = (ctx.orderProxies.get(order.id) ?? []).map((id) => ctx.bought.get(id)!).filter((b) => !b.gone);
        const sentAt = Date.now();
        for (const b of held) b.cred.revokeSentAt = sentAt;
        const res = await send(
          ctx.options,
          { key: nextKey(ctx.options, ctx.admin), kind: "refund", userId: order.userId, body: { reason: "gateway soak refund" }, order },
          `/api/admin/orders/${order.id}/refund`,
          ctx.admin.token,
        );
        if (!res.answer) {
          for (const b of held) delete b.cred.revokeSentAt;
          continue;
        }
        const tx = res.answer.body["transaction"] as Record<string, unknown> | null;
        Object.assign(res.entry, {
          transactionId: typeof tx?.["id"] === "string" ? tx["id"] : "",
          cents: Number(tx?.["amount_cents"] ?? 0),
        });
        const at = Date.now();
        for (const b of held) {
          Object.assign(b.cred, { revokedAt: at, how: "refund" });
          b.gone = true;
        }
        revocations.refund += 1;
      } else {
        victim.cred.revokeSentAt = Date.now();
        const res = await call(ctx.url, "PATCH", `/api/admin/proxies/${victim.id}`, {
          token: ctx.admin.token,
          body: { status: "AVAILABLE" },
        });
        if (res.status !== 200) {
          problems.push(`release ${victim.id} answered ${res.status}: ${JSON.stringify(res.body)}`);
          delete victim.cred.revokeSentAt;
          continue;
        }
        Object.assign(victim.cred, { revokedAt: Date.now(), how: "release" });
        victim.gone = true;
        released.add(victim.id);
        revocations.release += 1;
      }
    }
  };

  const lanes = [...customers.map((c, i) => requestLane(c, i)), ...customers.map((c, i) => tunnelLane(c, i)), revoker()];
  return { lanes, reqs, client, released, problems, revocations };
}
