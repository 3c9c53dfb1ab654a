// The customer's IP allowlist (issue #16): GET/PUT /api/v1/account/ip-allowlist on the
// signed-in user's own account, entries checked and normalised by the server, the field
// locked against records-API writes, each change fed to the gateway (a gateway_changes row
// for each of the user's proxies), and shown to admins in the console's user detail.
import { execFileSync } from "node:child_process";
import path from "node:path";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminGet, withDemoMode } from "../support/admin.ts";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { setColumns } from "../support/proxy-columns.ts";
import { customer, proxyBuyer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop();
const ROUTE = "/api/v1/account/ip-allowlist";

const getList = (pb: PocketBase) => pb.send<{ entries: string[] }>(ROUTE, { method: "GET" });
const putList = (pb: PocketBase, body: Record<string, unknown>) => pb.send<{ entries: string[] }>(ROUTE, { method: "PUT", body });
/** users.ip_allowlist as stored (read as the superuser). */
const stored = async (id: string): Promise<unknown> => (await shop.su.collection("users").getOne(id))["ip_allowlist"];

/** A refusal of `run`: its status, message and the message data.entries carries. */
async function refusal(run: () => Promise<unknown>): Promise<{ status: number; message: string; entries: string | undefined }> {
  const err = await errorOf(run);
  return {
    status: err.status,
    message: String(err.response["message"]),
    entries: (fieldErrorsOf(err) as Record<string, { message?: string }> | undefined)?.["entries"]?.message,
  };
}

/**
 * The gateway_changes rows of `proxyIds` after sequence number `after` (read from data.db:
 * the table has no records API), and the last sequence number.
 */
function changesAfter(after: number, proxyIds: string[]): { last: number; rows: string[] } {
  const out = execFileSync("python3", [
    "-c",
    `import sqlite3,sys,json
c=sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True, timeout=10)
ids=json.loads(sys.argv[3])
rows=[r[0] for r in c.execute('SELECT proxy_id FROM gateway_changes WHERE seq > ? ORDER BY seq', [int(sys.argv[2])]) if r[0] in ids]
print(json.dumps({'last': c.execute('SELECT COALESCE(MAX(seq), 0) FROM gateway_changes').fetchone()[0], 'rows': rows}))`,
    path.join(shop.tpb.dataDir, "data.db"),
    String(after),
    JSON.stringify(proxyIds),
  ]);
  return JSON.parse(out.toString()) as { last: number; rows: string[] };
}

describe("GET and PUT /api/v1/account/ip-allowlist", () => {
  it("answers anonymous callers 401", async () => {
    const anonymous = shop.tpb.client();
    expect(await statusOf(() => getList(anonymous))).toBe(401);
    expect(await statusOf(() => putList(anonymous, { entries: ["1.2.3.4"] }))).toBe(401);
  });

  it("starts empty, and stores the entries normalised: trimmed, lower-case, host bits zeroed, duplicates removed", async () => {
    const user = await customer(shop);
    expect(await getList(user.pb)).toEqual({ entries: [] });
    const expected = ["10.0.0.0/8", "2001:db8::1", "::ffff:1.2.3.4", "2001:db8::/32", "::1", "203.0.113.7"];
    const saved = await putList(user.pb, {
      entries: [
        " 10.1.2.3/8 ",
        "2001:DB8::1",
        "10.0.0.0/8",
        "::FFFF:1.2.3.4",
        "2001:db8:abcd::1/32",
        "0:0:0:0:0:0:0:1",
        "",
        "203.0.113.7/32",
      ],
    });
    expect(saved).toEqual({ entries: expected });
    expect(await getList(user.pb)).toEqual({ entries: expected });
    expect(await stored(user.id)).toEqual(expected);
  });

  it("takes a text of entries separated by new lines or commas, and answers the same shape", async () => {
    const user = await customer(shop);
    expect(await putList(user.pb, { text: "198.51.100.4\n192.168.1.77/24, fe80::1/10\r\n\n" })).toEqual({
      entries: ["198.51.100.4", "192.168.1.0/24", "fe80::/10"],
    });
    expect(await stored(user.id)).toEqual(["198.51.100.4", "192.168.1.0/24", "fe80::/10"]);
  });

  it("an empty list removes the restriction", async () => {
    const user = await customer(shop);
    await putList(user.pb, { entries: ["1.2.3.4"] });
    expect(await putList(user.pb, { entries: [] })).toEqual({ entries: [] });
    expect(await getList(user.pb)).toEqual({ entries: [] });
    expect(await stored(user.id)).toEqual([]);
  });

  it.each([
    ["an address out of range", { entries: ["1.2.3.4", "10.0.0.300"] }, "'10.0.0.300' is not an IP address or CIDR range."],
    ["a host name", { text: "1.2.3.4\nproxy.example.com" }, "'proxy.example.com' is not an IP address or CIDR range."],
    [
      "several bad lines, all named at once",
      { text: "bad-one\n1.2.3.4\n10.0.0.300" },
      "'bad-one' is not an IP address or CIDR range. '10.0.0.300' is not an IP address or CIDR range.",
    ],
    ["a prefix too long", { entries: ["2001:db8::/129"] }, "'2001:db8::/129' is not an IP address or CIDR range."],
    ["a zone", { entries: ["fe80::1%eth0"] }, "'fe80::1%eth0' is not an IP address or CIDR range."],
    [
      "a /0 range (everyone)",
      { entries: ["0.0.0.0/0"] },
      "'0.0.0.0/0' would let every address in: to remove the restriction, clear the list instead.",
    ],
    ["an IPv6 /0 range", { entries: ["::/0"] }, "'::/0' would let every address in: to remove the restriction, clear the list instead."],
    [
      "101 different entries",
      { entries: Array.from({ length: 101 }, (_, i) => `10.0.${i}.1`) },
      "The list can hold at most 100 addresses or ranges: use ranges to cover more.",
    ],
    [
      "an entry that is not a text",
      { entries: ["1.2.3.4", 5] },
      "Each entry must be a text: an IP address (203.0.113.7, 2001:db8::1) or a CIDR range (203.0.113.0/24).",
    ],
    [
      "entries that are not a list",
      { entries: "1.2.3.4" },
      "Entries must be a list of IP addresses or CIDR ranges ([] removes the restriction).",
    ],
    ["no entries", {}, "Send entries: a list of IP addresses or CIDR ranges ([] removes the restriction)."],
  ])("refuses %s with a 400 naming it, changing nothing", async (_case, body, message) => {
    const user = await customer(shop);
    await putList(user.pb, { entries: ["198.51.100.0/24"] });
    expect(await refusal(() => putList(user.pb, body))).toEqual({ status: 400, message, entries: message });
    expect(await stored(user.id)).toEqual(["198.51.100.0/24"]);
  });

  it("takes 100 entries, counted after duplicates are removed", async () => {
    const user = await customer(shop);
    const hundred = Array.from({ length: 100 }, (_, i) => `10.0.${i}.1`);
    expect((await putList(user.pb, { entries: [...hundred, "10.0.0.1", "10.0.1.1/32"] })).entries).toEqual(hundred);
    expect(await stored(user.id)).toEqual(hundred);
  });

  it("changes only the caller's own list", async () => {
    const alice = await customer(shop);
    const bob = await customer(shop);
    await putList(alice.pb, { entries: ["192.0.2.1"] });
    await putList(bob.pb, { entries: ["198.51.100.9"] });
    expect(await getList(alice.pb)).toEqual({ entries: ["192.0.2.1"] });
    expect(await stored(alice.id)).toEqual(["192.0.2.1"]);
    expect(await stored(bob.id)).toEqual(["198.51.100.9"]);
  });

  it("is refused to a demo account while demo mode is on", async () => {
    const user = await customer(shop);
    setColumns(shop.tpb, "users", [user.id], { is_demo: true });
    await withDemoMode(shop.su, async () => {
      expect(await statusOf(() => putList(user.pb, { entries: ["192.0.2.1"] }))).toBe(403);
    });
    expect(await stored(user.id)).toBeNull();
  });
});

describe("the records API cannot write the allowlist", () => {
  it("the owner's users update with ip_allowlist is refused and changes nothing, alone or beside a profile field", async () => {
    const user = await customer(shop);
    await putList(user.pb, { entries: ["192.0.2.0/24"] });
    const before = await shop.su.collection("users").getOne(user.id);
    for (const body of [
      { ip_allowlist: ["0.0.0.0/0"] },
      { ip_allowlist: [] },
      { ip_allowlist: null },
      { first_name: "Mallory", ip_allowlist: ["not an address"] },
    ]) {
      expect(await statusOf(() => user.pb.collection("users").update(user.id, body)), JSON.stringify(body)).toBe(404);
    }
    expect(await shop.su.collection("users").getOne(user.id)).toEqual(before);
    // The owner still reads it on their own record.
    expect((await user.pb.collection("users").getOne(user.id))["ip_allowlist"]).toEqual(["192.0.2.0/24"]);
  });

  it("another customer cannot write it either", async () => {
    const alice = await customer(shop);
    const bob = await customer(shop);
    expect(await statusOf(() => bob.pb.collection("users").update(alice.id, { ip_allowlist: ["192.0.2.1"] }))).toBe(404);
    expect(await stored(alice.id)).toBeNull();
  });
});

describe("the gateway and the console follow the allowlist", () => {
  it("a changed list notes a gateway change for each of the user's proxies; an unchanged one notes none", async () => {
    const { user, proxies } = await proxyBuyer(shop, { count: 2 });
    const ids = proxies.map((p) => p.id).sort();
    const { last } = changesAfter(0, ids);
    await putList(user.pb, { entries: ["192.0.2.1"] }); // a change: one row per proxy
    await putList(user.pb, { text: "192.0.2.1" }); // the same list: none
    await putList(user.pb, { entries: [] }); // a change: one row per proxy
    expect(changesAfter(last, ids).rows.sort()).toEqual([...ids, ...ids].sort());
  });

  it("admins see the list in the console's user detail", async () => {
    const user = await customer(shop);
    expect((await adminGet(shop.admin, `/api/admin/users/${user.id}`))["ip_allowlist"]).toEqual([]);
    await putList(user.pb, { entries: ["2001:db8::/48", "203.0.113.5"] });
    expect((await adminGet(shop.admin, `/api/admin/users/${user.id}`))["ip_allowlist"]).toEqual(["2001:db8::/48", "203.0.113.5"]);
  });
});
