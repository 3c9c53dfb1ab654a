// The customer's own activity log (issue #18): GET /api/v1/activity lists the signed-in
// customer's rows newest first with cursor paging and filters; sign-ins, password changes,
// IP allowlist changes and the shop's e-mail changes write rows (lib/activity/activity.js).
import { createHash, randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import type { ResponseOf } from "@/lib/api-contract";
import { ACTIVITY_KINDS, type listActivity } from "@/lib/api-contract/activity";
import { adminSend } from "../support/admin.ts";
import { createTestUser, errorOf, fieldErrorsOf, forwardedFrom, statusOf, type TestPocketBase } from "../support/pocketbase.ts";
import { customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { hookModule } from "../unit/support/hook-module.ts";

type ActivityPage = ResponseOf<typeof listActivity>;
type Activity = ActivityPage["items"][number];

const shop = useShop();
const ROUTE = "/api/v1/activity";
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const list = (pb: PocketBase, query: Record<string, string> = {}) => pb.send<ActivityPage>(ROUTE, { method: "GET", query });

/** A client that says it comes from `ip` with the user agent `agent`. */
function clientAs(tpb: TestPocketBase, ip: string, agent: string): PocketBase {
  const pb = tpb.client();
  pb.beforeSend = (url, options) => {
    options.headers = { ...(options.headers as Record<string, string>), ...forwardedFrom(tpb, ip), "User-Agent": agent };
    return { url, options };
  };
  return pb;
}

/** Every row of `pb`'s log (one page of 100). */
async function all(pb: PocketBase, query: Record<string, string> = {}): Promise<Activity[]> {
  return (await list(pb, { ...query, limit: "100" })).items;
}

const putAllowlist = (pb: PocketBase, entries: string[]) => pb.send("/api/v1/account/ip-allowlist", { method: "PUT", body: { entries } });

/** The refusal of a list call: its status and the field its errors name. */
async function refusal(pb: PocketBase, query: Record<string, string>): Promise<{ status: number; fields: string[] }> {
  const err = await errorOf(() => list(pb, query));
  return { status: err.status, fields: Object.keys(fieldErrorsOf(err)) };
}

describe("GET /api/v1/activity", () => {
  it("knows the same kinds as the contract", () => {
    expect(hookModule<{ facts(): { activity_kinds: string[] } }>("lib/core/facts.js").facts().activity_kinds).toEqual(ACTIVITY_KINDS);
  });

  it("answers anonymous callers 401", async () => {
    expect(await statusOf(() => list(shop.tpb.client()))).toBe(401);
  });

  it("records a sign-in with the address and user agent; a token refresh is not a sign-in", async () => {
    const user = await createTestUser(shop.su);
    const agent = `ActivityTest/1.0 (${"x".repeat(400)})`;
    const pb = clientAs(shop.tpb, "203.0.113.77", agent);
    await pb.collection("users").authWithPassword(user.email, user.password);
    await pb.collection("users").authRefresh();
    const rows = await all(pb);
    expect(rows).toHaveLength(1);
    const [row] = rows as [Activity];
    expect(row).toMatchObject({ kind: "sign_in", summary: "Signed in with a password", ip: "203.0.113.77", api_key_name: "" });
    expect(row.user_agent).toBe(agent.slice(0, 300));
    expect(row.created).toMatch(RFC3339);
    expect(Math.abs(Date.parse(row.created) - Date.now())).toBeLessThan(60_000);
  });

  it("does not record a refused sign-in", async () => {
    const user = await createTestUser(shop.su);
    const pb = shop.tpb.client();
    expect(await statusOf(() => pb.collection("users").authWithPassword(user.email, "Wrong#Password1"))).toBe(400);
    await pb.collection("users").authWithPassword(user.email, user.password);
    expect((await all(pb)).map((r) => r.kind)).toEqual(["sign_in"]);
    // A suspended account's sign-in is refused before it is recorded.
    await shop.su.collection("users").update(user.id, { suspended: true });
    expect(await statusOf(() => shop.tpb.client().collection("users").authWithPassword(user.email, user.password))).toBe(403);
    const rows = await shop.su.collection("account_activity").getFullList({ filter: shop.su.filter("user = {:id}", { id: user.id }) });
    expect(rows.map((r) => r["kind"])).toEqual(["sign_in"]);
  });

  it("records a password change from the settings form, not a refused one", async () => {
    const user = await customer(shop);
    const next = "Changed#Passw0rd";
    const wrong = await errorOf(() =>
      user.pb.collection("users").update(user.id, { oldPassword: "Not#TheOld1", password: next, passwordConfirm: next }),
    );
    expect(wrong.status).toBe(400);
    expect((await all(user.pb)).map((r) => r.kind)).toEqual(["sign_in"]);

    await user.pb.collection("users").update(user.id, { oldPassword: user.password, password: next, passwordConfirm: next });
    // The change ends the session (the token key changes): sign in again, as the form does.
    await user.pb.collection("users").authWithPassword(user.email, next);
    const rows = await all(user.pb);
    expect(rows.map((r) => [r.kind, r.summary])).toEqual([
      ["sign_in", "Signed in with a password"],
      ["password_changed", "Changed the password"],
      ["sign_in", "Signed in with a password"],
    ]);
    // A profile edit without a password is no password change.
    await user.pb.collection("users").update(user.id, { first_name: "Renamed" });
    expect((await all(user.pb)).filter((r) => r.kind === "password_changed")).toHaveLength(1);
  });

  it("records an IP allowlist change in its transaction, and nothing for an unchanged list", async () => {
    const user = await customer(shop);
    await putAllowlist(user.pb, ["203.0.113.7", "10.1.2.3/8"]);
    await putAllowlist(user.pb, ["203.0.113.7", "10.0.0.0/8"]); // the same list, normalised
    await putAllowlist(user.pb, []);
    const rows = await all(user.pb, { kind: "ip_allowlist_changed" });
    expect(rows.map((r) => r.summary)).toEqual(["Cleared the proxy IP allowlist", "Set the proxy IP allowlist to 203.0.113.7, 10.0.0.0/8"]);
    expect(rows[0]?.ip).not.toBe("");
  });

  it("names the API key a change was made with, and lists the log to a key with the read scope", async () => {
    const user = await customer(shop);
    const key = `psk_live_${randomBytes(24).toString("hex")}`;
    await shop.su.collection("api_keys").create({
      user: user.id,
      name: "CI deploys",
      prefix: key.slice(0, 16),
      key_hash: createHash("sha256").update(key).digest("hex"),
      scopes: ["read", "rotate"],
      ip_allowlist: [],
    });
    const keyed = shop.tpb.client();
    keyed.beforeSend = (url, options) => {
      options.headers = { ...(options.headers as Record<string, string>), Authorization: `Bearer ${key}` };
      return { url, options };
    };
    await putAllowlist(keyed, ["192.0.2.44"]);
    const [row] = await all(keyed, { kind: "ip_allowlist_changed" });
    expect(row).toMatchObject({ summary: "Set the proxy IP allowlist to 192.0.2.44", api_key_name: "CI deploys" });
    expect((await all(user.pb, { kind: "sign_in" }))[0]?.api_key_name).toBe("");
  });

  it("records the shop's change of the e-mail address, without the admin's address", async () => {
    const user = await customer(shop);
    const next = `changed-${Date.now()}@api.test`;
    await adminSend(shop.admin, `/api/admin/users/${user.id}/email`, { email: next });
    // The new address ends the customer's sessions: the row is read as the superuser.
    const rows = await shop.su
      .collection("account_activity")
      .getFullList({ filter: shop.su.filter("user = {:id} && kind = 'email_changed'", { id: user.id }) });
    expect(rows.map((r) => ({ summary: r["summary"], ip: r["ip"], user_agent: r["user_agent"] }))).toEqual([
      { summary: `E-mail address changed from ${user.email} to ${next} by the shop`, ip: "", user_agent: "" },
    ]);
  });

  it("pages newest first with a cursor, every row once, and filters by kind", async () => {
    const user = await customer(shop);
    for (let i = 1; i <= 5; i++) await putAllowlist(user.pb, [`198.51.100.${i}`]);
    const everything = await all(user.pb);
    expect(everything.map((r) => r.kind)).toEqual([...Array<string>(5).fill("ip_allowlist_changed"), "sign_in"]);
    expect(everything[0]?.summary).toBe("Set the proxy IP allowlist to 198.51.100.5");
    const times = everything.map((r) => Date.parse(r.created));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const seen: Activity[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ActivityPage = await list(user.pb, cursor ? { limit: "2", cursor } : { limit: "2" });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((r) => r.id)).toEqual(everything.map((r) => r.id));

    expect((await all(user.pb, { kind: "sign_in" })).map((r) => r.kind)).toEqual(["sign_in"]);
    expect(await all(user.pb, { kind: "purchase" })).toEqual([]);
    // The default page holds 50.
    expect((await list(user.pb)).next_cursor).toBeNull();
  });

  it("filters by date: from inclusive, to exclusive", async () => {
    const user = await customer(shop);
    expect(await all(user.pb, { from: "2100-01-01" })).toEqual([]);
    expect(await all(user.pb, { to: "2000-01-01T00:00:00Z" })).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await all(user.pb, { from: today, to: "2100-01-01" })).map((r) => r.kind)).toEqual(["sign_in"]);
  });

  it("shows a customer only their own rows", async () => {
    const a = await customer(shop);
    const b = await customer(shop);
    await putAllowlist(a.pb, ["192.0.2.1"]);
    const mine = await all(b.pb);
    expect(mine.map((r) => r.kind)).toEqual(["sign_in"]);
    const theirs = new Set((await all(a.pb)).map((r) => r.id));
    expect(mine.some((r) => theirs.has(r.id))).toBe(false);
    // A's cursor in B's hands pages B's own rows only.
    const page = await list(a.pb, { limit: "1" });
    expect(page.next_cursor).not.toBeNull();
    const other = await list(b.pb, { cursor: page.next_cursor ?? "" });
    expect(other.items.every((r) => !theirs.has(r.id))).toBe(true);
  });

  it("refuses a bad limit, cursor, kind or date with a 400 naming the field", async () => {
    const user = await customer(shop);
    const junkCursor = Buffer.from("not a cursor").toString("base64url");
    const cases: [Record<string, string>, string][] = [
      [{ limit: "0" }, "limit"],
      [{ limit: "101" }, "limit"],
      [{ limit: "ten" }, "limit"],
      [{ limit: "-1" }, "limit"],
      [{ cursor: "%%%" }, "cursor"],
      [{ cursor: junkCursor }, "cursor"],
      [{ kind: "sign_out" }, "kind"],
      [{ from: "yesterday" }, "from"],
      [{ to: "2026-13-45T99:00:00Z" }, "to"],
      [{ from: "2026-02-01", to: "2026-01-01" }, "from"],
    ];
    for (const [query, field] of cases) {
      expect({ query, ...(await refusal(user.pb, query)) }).toEqual({ query, status: 400, fields: [field] });
    }
    // Hostile values are refused with a 400, never a 5xx.
    const hostile = ["1e400", "NaN", "%", "' OR '1'='1", "\u0000", "x".repeat(5000), "2026-01-01T00:00:00+99:99", "[]", "{}"];
    for (const name of ["kind", "from", "to", "cursor", "limit"]) {
      for (const value of hostile) {
        const status = await statusOf(() => list(user.pb, { [name]: value }));
        expect({ name, value: value.slice(0, 30), status }).toEqual({ name, value: value.slice(0, 30), status: 400 });
      }
    }
  });
});
