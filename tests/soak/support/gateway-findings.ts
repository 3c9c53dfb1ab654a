// The gateway soak's findings (gateway.test.ts): which requests were served too long after
// their credentials were revoked or refused while they were live, and how the proxy_usage
// rows compare with the bytes and connections the two ends saw.
import type PocketBase from "pocketbase";
import type { Bought, Req } from "./gateway-load.ts";
import type { ClientBytes, TargetBytes } from "./gateway-traffic.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests served more than `revocationMs` after their revocation, and requests with live credentials not served. */
export function revocationFindings(reqs: Req[], revocationMs: number) {
  let maxLag = 0;
  const late: string[] = [];
  const refusedLive: string[] = [];
  let staleTried = 0;
  let staleRefused = 0;
  let cutTunnels = 0;
  let refusedFresh = 0;
  for (const r of reqs) {
    const { cred } = r;
    const what = () => `${r.kind} with ${cred.username} of ${cred.proxyId}`;
    if (cred.revokedAt !== undefined && r.startedAt > cred.revokedAt) {
      staleTried += 1;
      if (r.served) {
        maxLag = Math.max(maxLag, r.startedAt - cred.revokedAt);
        if (r.startedAt - cred.revokedAt > revocationMs)
          late.push(`${what()} started ${r.startedAt - cred.revokedAt} ms after its ${cred.how} was answered, and was served`);
      } else {
        staleRefused += 1;
        if (r.kind === "exchange") cutTunnels += 1;
      }
    }
    const liveThroughout = cred.revokeSentAt === undefined || r.endedAt < cred.revokeSentAt;
    // New credentials (a regeneration) reach the gateway within a second, like every change.
    if (liveThroughout && !r.served && r.startedAt - cred.issuedAt <= revocationMs) {
      refusedFresh += 1;
      continue;
    }
    if (liveThroughout && !r.served)
      refusedLive.push(
        `${what()}, issued ${r.startedAt - cred.issuedAt} ms before, at ${new Date(r.startedAt).toISOString()} was not served: ${r.answer ?? "cut"}`,
      );
  }
  return { maxLag, late, refusedLive, staleTried, staleRefused, cutTunnels, refusedFresh };
}

type Usage = Map<string, { up: number; down: number; connections: number }>;

/** The proxy_usage rows summed by proxy once the gateway's flushes have settled. */
export async function settledUsage(su: PocketBase): Promise<Usage> {
  const readUsage = async () => {
    const rows = await su.collection("proxy_usage").getFullList({ batch: 1000 });
    const by = new Map<string, { up: number; down: number; connections: number }>();
    for (const row of rows) {
      const u = by.get(row["proxy_id"] as string) ?? { up: 0, down: 0, connections: 0 };
      u.up += row["bytes_up"] as number;
      u.down += row["bytes_down"] as number;
      u.connections += row["connections"] as number;
      by.set(row["proxy_id"] as string, u);
    }
    return by;
  };
  // A flush interval and a half after the last byte, then until two reads a flush apart agree.
  await sleep(1500);
  let usage = await readUsage();
  for (let i = 0; i < 10; i++) {
    await sleep(1200);
    const again = await readUsage();
    if (JSON.stringify([...again]) === JSON.stringify([...usage])) break;
    usage = again;
  }
  return usage;
}

/** Whether the metered bytes and connections lie between what the two ends saw, per proxy and in total. */
export function usageFindings(
  bought: Map<string, Bought>,
  seen: { client: Map<string, ClientBytes>; targetBytes: Map<string, TargetBytes>; reqs: Req[] },
  usage: Usage,
  tolerance: number,
) {
  const { client, targetBytes, reqs } = seen;
  const total = { upLow: 0, upHigh: 0, up: 0, downLow: 0, downHigh: 0, down: 0, plainUp: 0, connLow: 0, connHigh: 0, conn: 0 };
  const off: string[] = [];
  const within = (value: number, low: number, high: number) =>
    value >= Math.floor(low * (1 - tolerance)) && value <= Math.ceil(high * (1 + tolerance));
  for (const id of bought.keys()) {
    const c = client.get(id) ?? { sent: 0, received: 0 };
    const t = targetBytes.get(id) ?? { read: 0, written: 0, plainRead: 0 };
    const m = usage.get(id) ?? { up: 0, down: 0, connections: 0 };
    // Up: what reached the target through tunnels <= metered <= what the client sent into
    // them, plus the plain requests as the gateway forwarded them (what the target read of
    // those).
    const upLow = t.read;
    const upHigh = c.sent + t.plainRead;
    // Down: what the client received <= metered <= what the target sent.
    const downLow = c.received;
    const downHigh = t.written;
    const mine = reqs.filter((r) => r.cred.proxyId === id && r.kind !== "exchange");
    const connLow = mine.filter((r) => r.served).length;
    const connHigh = mine.length;
    if (!within(m.up, upLow, upHigh)) off.push(`${id}: ${m.up} bytes up metered, ${upLow}-${upHigh} moved`);
    if (!within(m.down, downLow, downHigh)) off.push(`${id}: ${m.down} bytes down metered, ${downLow}-${downHigh} moved`);
    if (m.connections < connLow || m.connections > connHigh)
      off.push(`${id}: ${m.connections} connections metered, ${connLow} served of ${connHigh} tried`);
    Object.assign(total, {
      upLow: total.upLow + upLow,
      upHigh: total.upHigh + upHigh,
      up: total.up + m.up,
      downLow: total.downLow + downLow,
      downHigh: total.downHigh + downHigh,
      down: total.down + m.down,
      plainUp: total.plainUp + t.plainRead,
      connLow: total.connLow + connLow,
      connHigh: total.connHigh + connHigh,
      conn: total.conn + m.connections,
    });
  }
  const unknown = [...usage.keys()].filter((id) => !bought.has(id));
  return { total, off, unknown, within };
}
