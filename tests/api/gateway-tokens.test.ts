// The console's gateway tokens (issue #16, System Settings "Proxy gateway"): an admin makes
// one (shown once, stored as the SHA-256 Go checks), lists them (never a token nor a hash),
// and revokes one; a console-made token opens /api/gateway/snapshot and a revoked one no
// longer does. Customers and anonymous callers are refused; each change is audited by name.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminSend, auditRows, withDemoMode } from "../support/admin.ts";
import { errorOf, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

const shop = useShop({ ledger: false, env: { SHOP_APP_URL: "https://shop.example.test/" } });

interface Created {
  id: string;
  name: string;
  token: string;
  pb_url: string;
}
interface Listed {
  id: string;
  name: string;
  created: string;
  last_seen_at: string;
  last_address: string;
  in_contact: boolean;
}
interface Page {
  items: Listed[];
  totalItems: number;
}

const PATH = "/api/admin/gateway-tokens";
let buyer: Customer;
let seq = 0;
const uniqueName = (prefix = "gw") => `${prefix}-${Date.now().toString(36)}-${seq++}`;

const make = (name: string) => adminSend<Created>(shop.admin, PATH, { name });
const list = () => adminGet<Page>(shop.admin, PATH, { perPage: 100 });
const revoke = (id: string) => adminSend<{ id: string; name: string }>(shop.admin, `${PATH}/${id}`, {}, "DELETE");
const snapshotStatus = async (token: string) =>
  (await fetch(`${shop.tpb.url}/api/gateway/snapshot`, { headers: { Authorization: `Bearer ${token}` } })).status;
const tokenCount = async () => (await shop.su.collection("gateway_tokens").getList(1, 1)).totalItems;
const auditOf = (action: string, id: string) =>
  auditRows(shop.su, shop.su.filter("action = {:action} && target_id = {:id}", { action, id }));

beforeAll(async () => {
  buyer = await customer(shop);
});

describe("gateway tokens in the console", () => {
  it("makes a token in Go's format, shown once and stored only as its SHA-256, that opens the gateway API until revoked", async () => {
    const name = uniqueName("eu");
    const made = await make(`  ${name}  `);
    expect(made.name).toBe(name);
    expect(made.token).toMatch(/^gwt_[A-Za-z0-9]{40}$/);
    expect(made.pb_url).toBe("https://shop.example.test");

    // The stored row: the name and the hex SHA-256 of the token, nothing else of it.
    const row = await shop.su.collection("gateway_tokens").getOne(made.id);
    expect(row["name"]).toBe(name);
    expect(row["token_hash"]).toBe(createHash("sha256").update(made.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(made.token.slice(4));

    // Listed, never with the token or its hash; not used yet.
    const before = (await list()).items.find((t) => t.id === made.id);
    expect(before).toEqual({ id: made.id, name, created: row["created"], last_seen_at: "", last_address: "", in_contact: false });
    const listText = JSON.stringify(await list());
    expect(listText).not.toContain(made.token.slice(4));
    expect(listText).not.toContain(row["token_hash"]);
    expect(listText).not.toContain("token_hash");

    // Go's gateway API accepts it, and the list says when and from where it was used.
    expect(await snapshotStatus(made.token)).toBe(200);
    const used = (await list()).items.find((t) => t.id === made.id);
    expect(used?.last_seen_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(used?.last_address).toBe("127.0.0.1");
    expect(used?.in_contact, "its gateway called in the last 90 s (#26 finding 4)").toBe(true);

    // Revoked: gone from the list at once, and the very next gateway call is 401.
    expect(await revoke(made.id)).toEqual({ id: made.id, name });
    expect(await snapshotStatus(made.token)).toBe(401);
    expect((await list()).items.map((t) => t.id)).not.toContain(made.id);
    expect(await statusOf(() => shop.su.collection("gateway_tokens").getOne(made.id))).toBe(404);
    const again = await errorOf(() => revoke(made.id));
    expect(again.status).toBe(404);
    expect(again.response["message"]).toBe("Gateway token not found (it may have been revoked already).");
  });

  it("audits each change with the name, never the token", async () => {
    const name = uniqueName("audited");
    const made = await make(name);
    await revoke(made.id);
    const adminId = shop.admin.authStore.record?.id;
    const [created] = await auditOf("gateway_token.create", made.id);
    expect(created).toMatchObject({ admin_id: adminId, target_type: "gateway_tokens", details: { name } });
    const [revoked] = await auditOf("gateway_token.revoke", made.id);
    expect(revoked).toMatchObject({ admin_id: adminId, target_type: "gateway_tokens", details: { name, last_seen_at: null } });
    for (const entry of [created, revoked]) {
      expect(JSON.stringify(entry)).not.toContain(made.token.slice(4));
      expect(JSON.stringify(entry)).not.toContain(createHash("sha256").update(made.token).digest("hex"));
    }
  });

  it.each([
    ["no name", {}, "Name the gateway (1-100 characters), e.g. eu-1."],
    ["a blank name", { name: "   " }, "Name the gateway (1-100 characters), e.g. eu-1."],
    ["a name that is not text", { name: 42 }, "Name the gateway (1-100 characters), e.g. eu-1."],
    ["a name of 101 characters", { name: "n".repeat(101) }, "The name must be at most 100 characters."],
    ["a name on two lines", { name: "eu\n1" }, "The name must be one line of text, without control characters."],
    ["an unknown field", { name: "ok-name", token: "gwt_x" }, 'Unknown field "token".'],
  ])("refuses %s with a message naming the field, and makes nothing", async (_case, body, message) => {
    const count = await tokenCount();
    const err = await errorOf(() => adminSend(shop.admin, PATH, body));
    expect(err.status).toBe(400);
    expect(err.response["message"]).toBe(message);
    const field = Object.keys(body).find((k) => k !== "name") ?? "name";
    expect(fieldErrorsOf(err)?.[field]?.message).toBe(message);
    expect(await tokenCount()).toBe(count);
  });

  it("takes a name of exactly 100 characters, and refuses a name another token has (ignoring case)", async () => {
    const long = `${uniqueName("x")}-`.padEnd(100, "y");
    expect((await make(long)).name).toBe(long);
    const name = uniqueName("Dup");
    await make(name);
    const count = await tokenCount();
    for (const same of [name, name.toLowerCase(), ` ${name.toUpperCase()} `]) {
      const err = await errorOf(() => make(same));
      expect(err.status).toBe(400);
      expect(fieldErrorsOf(err)?.["name"]?.message).toBe(
        "A gateway token with this name already exists: choose another name, or revoke the old token first.",
      );
    }
    expect(await tokenCount()).toBe(count);
  });

  it("is for admins: anonymous 401, customers 403, nothing changes; the records API stays closed", async () => {
    const made = await make(uniqueName("guarded"));
    const before = await shop.su.collection("gateway_tokens").getFullList({ sort: "id" });
    const anonymous = shop.tpb.client();
    for (const [pb, status] of [
      [anonymous, 401],
      [buyer.pb, 403],
    ] as const) {
      expect(await statusOf(() => adminGet(pb, PATH))).toBe(status);
      expect(await statusOf(() => adminSend(pb, PATH, { name: uniqueName("intruder") }))).toBe(status);
      expect(await statusOf(() => adminSend(pb, `${PATH}/${made.id}`, {}, "DELETE"))).toBe(status);
    }
    expect(await shop.su.collection("gateway_tokens").getFullList({ sort: "id" })).toEqual(before);
    expect(await snapshotStatus(made.token)).toBe(200);
    // The customer's session is no gateway token either.
    expect(await snapshotStatus(buyer.pb.authStore.token)).toBe(401);
    // Admins too change tokens only through these routes (the records API refuses writes).
    expect(await statusOf(() => shop.admin.collection("gateway_tokens").delete(made.id))).toBe(403);
  });

  it("is read-only in demo mode: the list answers, making and revoking are refused", async () => {
    const made = await make(uniqueName("demo"));
    await withDemoMode(shop.su, async () => {
      const count = await tokenCount();
      expect((await list()).items.map((t) => t.id)).toContain(made.id);
      expect(await statusOf(() => make(uniqueName("demo")))).toBe(403);
      expect(await statusOf(() => revoke(made.id))).toBe(403);
      expect(await tokenCount()).toBe(count);
    });
    expect(await snapshotStatus(made.token)).toBe(200);
  });
});
