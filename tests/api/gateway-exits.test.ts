// Exits and customer credentials on the shop's gateway (issue #16): import takes UPSTREAM
// lines and gives each proxy the shop's own credentials on the gateway's endpoint, the
// upstream password in no answer; generate makes direct proxies spread over the bind
// addresses; the console edits where a proxy exits, never its host and port; regenerate,
// release and refund change only the customer's password; usernames are unique; the
// gateway settings are checked; and the 1764600200 migration moves an existing shop.
import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AdminProxy, AdminProxyDetail, ImportResult, InventoryPage } from "@/features/console-proxies/api";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "../../server/pocketbase-process.ts";
import { adminGet, adminSend } from "../support/admin.ts";
import {
  createTestUser,
  errorOf,
  freePort,
  signIn,
  startTestPocketBase,
  type TestPocketBase,
  fieldErrorsOf,
} from "../support/pocketbase.ts";
import { customer, iso, post, purchase, setProxyColumns, DAY, type Customer } from "../support/shop.ts";
import { smtpEnv, startTestMailbox, waitForMail, type TestMailbox } from "../support/smtp-sink.ts";
import { useShop } from "../support/use-shop.ts";

// Free ports: the gateway (when the binary has it) listens on them.
const HTTP_PORT = await freePort();
let SOCKS_PORT = await freePort();
while (SOCKS_PORT === HTTP_PORT) SOCKS_PORT = await freePort();
const APP_HOST = "shop-gateway.test";
/** The endpoint's ports when the environment sets none. */
const DEFAULT_HTTP_PORT = 3128;
const DEFAULT_SOCKS_PORT = 1080;
const GATEWAY_ENV = {
  SHOP_APP_URL: `http://${APP_HOST}:4321`,
  GATEWAY_HTTP_PORT: String(HTTP_PORT),
  GATEWAY_SOCKS_PORT: String(SOCKS_PORT),
};

const shop = useShop({ env: GATEWAY_ENV, ledger: false });
let buyer: Customer;

beforeAll(async () => {
  buyer = await customer(shop, 100_000);
});

let seq = 0;
const tag = () => `g${Date.now().toString(36)}${seq++}${randomBytes(2).toString("hex")}`;
const sentence = (m: string) => (m.endsWith(".") ? m : `${m}.`);

const list = (query: Record<string, string | number>) => adminGet<InventoryPage>(shop.admin, "/api/admin/proxies", query);
const detail = (id: string) => adminGet<AdminProxyDetail>(shop.admin, `/api/admin/proxies/${id}`);
const importText = (body: Record<string, unknown>) => adminSend<ImportResult>(shop.admin, "/api/admin/proxies/import", body);
const edit = (id: string, body: Record<string, unknown>) =>
  adminSend<AdminProxyDetail>(shop.admin, `/api/admin/proxies/${id}`, body, "PATCH");
const generate = (body: Record<string, unknown>) =>
  adminSend<{ generated_count: number; ids: string[] }>(shop.admin, "/api/admin/proxies/generate", body);
/** The stored row, hidden fields included (superusers see them). */
const stored = (id: string) => shop.su.collection("proxies").getOne(id);
const audits = (action: string) =>
  shop.su.collection("audit_logs").getFullList({ filter: shop.su.filter("action = {:action}", { action }), sort: "created" });

async function putSettings(changes: Record<string, unknown>) {
  const current = await adminGet(shop.admin, "/api/admin/settings");
  return adminSend<Record<string, unknown>>(shop.admin, "/api/admin/settings", { ...current, ...changes }, "PUT");
}

/** Imports upstream lines of one (new) type and place; answers the proxies made, in line order. */
async function importUpstreams(lines: string[], batch: Record<string, string>) {
  const res = await importText({ text: lines.join("\n"), ...batch });
  expect(res.imported).toBe(lines.length);
  const made: AdminProxy[] = [];
  for (const line of lines) {
    const [host, port, username] = line.split(":");
    const found = (await list({ search: host!, perPage: 100 })).items.filter(
      (p) => p.upstream_port === Number(port) && p.upstream_username === username,
    );
    expect(found).toHaveLength(1);
    made.push(found[0]!);
  }
  return made;
}

describe("import of upstream proxies", () => {
  it("gives each upstream line the shop's own credentials on the gateway, and no answer carries the upstream password", async () => {
    const t = tag();
    const pw = [1, 2, 3].map((i) => `UpSecret${i}-${t}`);
    const res = await importText({
      text: [
        `${t}-up.test:8001:upuser1:${pw[0]}`,
        `${t}-up.test:8002:upuser2:${pw[1]}`,
        `${t}-up.test:8001:upuser1:${pw[2]}`, // duplicate of line 1
        `${t}-up.test:8003:upuser3`, // malformed
      ].join("\n"),
      type: "HTTPS",
    });
    expect(res.imported).toBe(2);
    expect(res.skipped).toEqual([
      { line: 3, text: `${t}-up.test:8001`, reason: "Duplicate of line 1 in this file" },
      { line: 4, text: `${t}-up.test:8003`, reason: "Malformed: expected host:port:username:password" },
    ]);
    // Importing the same upstream again: skipped, and nothing valid is left.
    const again = await errorOf(() => importText({ text: `${t}-up.test:8001:upuser1:${pw[0]}`, type: "HTTPS" }));
    expect(again.status).toBe(400);
    expect(fieldErrorsOf(again)["skipped"]).toEqual([
      { line: 1, text: `${t}-up.test:8001`, reason: "Already imported (same upstream host, port and username)" },
    ]);

    const page = await list({ search: `${t}-up.test` });
    expect(page.totalItems).toBe(2);
    for (const p of page.items) {
      expect(p).toMatchObject({
        host: APP_HOST,
        port: HTTP_PORT,
        exit: "upstream",
        upstream_host: `${t}-up.test`,
        upstream_has_password: true,
        upstream_error: "",
        type: "HTTPS",
        status: "AVAILABLE",
      });
      expect(p.username).toMatch(/^htt_unknown_[a-z0-9]{12}$/);
      expect(p.username).not.toBe(p.upstream_username);
      const one = await detail(p.id);
      expect(one.password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(pw).not.toContain(one.password);
    }
    expect(page.items.map((p) => [p.upstream_port, p.upstream_username]).sort()).toEqual([
      [8001, "upuser1"],
      [8002, "upuser2"],
    ]);

    // A customer buys both: the purchase answer, the records API, new credentials and the
    // auto-renew switch answer the gateway endpoint with its ports, never where it exits.
    const order = await purchase(buyer.pb, { type: "HTTPS", country: "Unknown", quantity: 2 });
    const ids = order.proxies.map((p) => p.id).sort();
    expect(ids).toEqual(page.items.map((p) => p.id).sort());
    const answers: unknown[] = [
      order,
      await buyer.pb.collection("proxies").getFullList(),
      await buyer.pb.collection("proxies").getOne(ids[0]!),
    ];
    answers.push(await post(buyer.pb, `/api/v1/proxies/${ids[0]}/rotate`, {}));
    answers.push(await buyer.pb.send(`/api/v1/proxies/${ids[1]}`, { method: "PATCH", body: { auto_renew: true } }));
    for (const p of [...order.proxies, answers[2], answers[3], answers[4]] as Record<string, unknown>[]) {
      expect(p).toMatchObject({ host: APP_HOST, port: HTTP_PORT, ports: { http: HTTP_PORT } });
      expect(p["ports"]).toEqual({ http: HTTP_PORT });
      for (const field of ["exit", "bind_address", "upstream_host", "upstream_port", "upstream_username", "upstream_password_encrypted"]) {
        expect(p, field).not.toHaveProperty(field);
      }
    }
    // The admin answers and the audit log too.
    answers.push(page, await detail(ids[0]!), await detail(ids[1]!), await audits("proxies.import"), res);
    const text = JSON.stringify(answers);
    for (const secret of pw) expect(text).not.toContain(secret);
    expect(JSON.stringify(await audits("proxies.import"))).not.toContain("upuser");
  });

  it("answers the SOCKS5 port for SOCKS5 proxies and both ports for residential ones", async () => {
    const t = tag();
    const [socks] = await importUpstreams([`${t}-s.test:1080:s1:PwS1`], { type: "SOCKS5" });
    const [resi] = await importUpstreams([`${t}-r.test:8000:r1:PwR1`], { type: "RESIDENTIAL", country: "DE" });
    expect(socks).toMatchObject({ host: APP_HOST, port: SOCKS_PORT });
    expect(resi).toMatchObject({ host: APP_HOST, port: HTTP_PORT });
    const s = await purchase(buyer.pb, { type: "SOCKS5", country: "Unknown", quantity: 1 });
    expect(s.proxies[0]).toMatchObject({ id: socks!.id, port: SOCKS_PORT, ports: { socks5: SOCKS_PORT } });
    expect(s.proxies[0]!["ports"]).toEqual({ socks5: SOCKS_PORT });
    const r = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "DE", quantity: 1 });
    expect(r.proxies[0]!["ports"]).toEqual({ http: HTTP_PORT, socks5: SOCKS_PORT });
    expect((await buyer.pb.collection("proxies").getOne(resi!.id))["ports"]).toEqual({ http: HTTP_PORT, socks5: SOCKS_PORT });
  });
});

describe("regenerate, release and refund", () => {
  it("change only the customer's password: the upstream stays for the next buyer", async () => {
    const t = tag();
    const made = await importUpstreams([`${t}.test:1:a:UpA-${t}`, `${t}.test:2:b:UpB-${t}`, `${t}.test:3:c:UpC-${t}`], {
      type: "HTTPS",
      country: "FR",
    });
    const upstreamOf = async (id: string) => {
      const row = await stored(id);
      return [row["exit"], row["upstream_host"], row["upstream_port"], row["upstream_username"], row["upstream_password_encrypted"]];
    };
    const before = await Promise.all(made.map((p) => upstreamOf(p.id)));
    const passwordOf = async (id: string) => (await stored(id))["password_encrypted"];
    const customerPasswords = await Promise.all(made.map((p) => passwordOf(p.id)));

    const one = await purchase(buyer.pb, { type: "HTTPS", country: "FR", quantity: 1 });
    const two = await purchase(buyer.pb, { type: "HTTPS", country: "FR", quantity: 2 });
    const [regenerated, released] = two.proxies.map((p) => p.id);
    await post(buyer.pb, `/api/v1/proxies/${regenerated}/rotate`, {});
    await edit(released!, { status: "AVAILABLE" });
    await post(shop.admin, `/api/admin/orders/${one.order.id}/refund`, { reason: "Testing the upstream" }, randomUUID());

    expect(await Promise.all(made.map((p) => upstreamOf(p.id)))).toEqual(before);
    const after = await Promise.all(made.map((p) => passwordOf(p.id)));
    made.forEach((_, i) => expect(after[i]).not.toBe(customerPasswords[i]));
    for (const p of made) expect((await detail(p.id)).upstream_has_password).toBe(true);
  });
});

describe("generate", () => {
  it("makes direct proxies on the gateway endpoint, spread over the bind addresses, with unique usernames", async () => {
    const saved = await putSettings({ gateway_bind_addresses: " 192.0.2.1, 192.0.2.2\n[2001:DB8::3] 192.0.2.1" });
    expect(saved["gateway_bind_addresses"]).toBe("192.0.2.1, 192.0.2.2, 2001:db8::3");
    try {
      const res = await generate({ type: "SOCKS5", country: "US", quantity: 6 });
      const made = await Promise.all(res.ids.map((id) => detail(id)));
      for (const p of made) {
        expect(p).toMatchObject({ exit: "direct", host: APP_HOST, port: SOCKS_PORT, upstream_host: "", upstream_has_password: false });
        expect(p.username).toMatch(/^soc_us_[a-z0-9]{12}$/);
      }
      expect(new Set(made.map((p) => p.username)).size).toBe(6);
      const counts: Record<string, number> = {};
      for (const p of made) counts[p.bind_address] = (counts[p.bind_address] ?? 0) + 1;
      expect(counts).toEqual({ "192.0.2.1": 2, "192.0.2.2": 2, "2001:db8::3": 2 });
      // The next batch starts where this one left the addresses even.
      const next = await generate({ type: "SOCKS5", country: "US", quantity: 1 });
      expect((await detail(next.ids[0]!)).bind_address).toBe("192.0.2.1");
    } finally {
      await putSettings({ gateway_bind_addresses: "" });
    }
    const plain = await generate({ type: "HTTP", country: "US", quantity: 1 });
    expect(await detail(plain.ids[0]!)).toMatchObject({ exit: "direct", bind_address: "", port: HTTP_PORT });
  });
});

describe("the gateway settings", () => {
  it("moves every proxy's host with gateway_public_host, and keeps the bind addresses and ranges from the public", async () => {
    const { ids } = await generate({ type: "DATACENTER", country: "US", quantity: 1 });
    const saved = await putSettings({ gateway_public_host: " Proxy.Example.NET ", gateway_allowed_ranges: "10.0.0.0/8,\n2001:DB8::/32" });
    expect(saved).toMatchObject({ gateway_public_host: "proxy.example.net", gateway_allowed_ranges: "10.0.0.0/8, 2001:db8::/32" });
    try {
      expect((await detail(ids[0]!)).host).toBe("proxy.example.net");
      expect((await list({ search: APP_HOST, perPage: 1 })).totalItems).toBe(0);
      const publicRows = await shop.tpb.client().collection("settings").getFullList();
      const keys = publicRows.map((r) => r["key"]);
      expect(keys).toContain("gateway_public_host");
      expect(keys).not.toContain("gateway_bind_addresses");
      expect(keys).not.toContain("gateway_allowed_ranges");
    } finally {
      await putSettings({ gateway_public_host: "", gateway_allowed_ranges: "" });
    }
    expect((await detail(ids[0]!)).host).toBe(APP_HOST);
  });

  it.each([
    [
      "gateway_public_host",
      "bad host!",
      "Gateway public host must be a host name or an IP address (like proxy.example.com), or empty for the shop's own host",
    ],
    [
      "gateway_bind_addresses",
      "192.0.2.1, 192.0.2.300, eth0",
      "Gateway bind addresses: 192.0.2.300, eth0 are not an IP address; write them like 203.0.113.10, 2001:db8::10, or leave it empty",
    ],
    [
      "gateway_allowed_ranges",
      "10.0.0.0/33",
      "Gateway allowed ranges: 10.0.0.0/33 is not a CIDR range (address/prefix); write them like 10.0.0.0/8, 2001:db8::/32, or leave it empty",
    ],
  ])("refuses %s = %j with a clear message", async (key, value, message) => {
    const err = await errorOf(() => putSettings({ [key]: value }));
    expect(err.status).toBe(400);
    expect(err.message).toBe(sentence(message));
    expect((fieldErrorsOf(err) as Record<string, { message: string }>)[key]?.message).toBe(sentence(message));
  });
});

describe("PATCH /api/admin/proxies/{id}: exits and credentials", () => {
  it("edits the exit, the bind address and the upstream (password sealed, kept when empty), with one audit row each", async () => {
    const t = tag();
    const [proxy] = await importUpstreams([`${t}.test:7000:olduser:OldUp-${t}`], { type: "DATACENTER", country: "JP" });
    const sealed = (await stored(proxy!.id))["upstream_password_encrypted"];

    const direct = await edit(proxy!.id, { exit: "direct", bind_address: "[2001:DB8::7]" });
    expect(direct).toMatchObject({ exit: "direct", bind_address: "2001:db8::7", upstream_host: `${t}.test`, upstream_has_password: true });

    setProxyColumns(shop.tpb, [proxy!.id], { upstream_failed_at: iso(Date.now()), upstream_error: "connection refused" });
    expect(await detail(proxy!.id)).toMatchObject({ upstream_error: "connection refused" });
    const moved = await edit(proxy!.id, {
      exit: "upstream",
      upstream_host: ` New-${t}.TEST `,
      upstream_port: 7001,
      upstream_username: "newuser",
      upstream_password: `NewUp-${t}`,
    });
    expect(moved).toMatchObject({
      exit: "upstream",
      upstream_host: `new-${t}.test`,
      upstream_port: 7001,
      upstream_username: "newuser",
      upstream_has_password: true,
      upstream_error: "",
      upstream_failed_at: "",
      host: APP_HOST,
      port: HTTP_PORT,
    });
    const newSealed = (await stored(proxy!.id))["upstream_password_encrypted"];
    expect(newSealed).toMatch(/^v1:/);
    expect(newSealed).not.toBe(sealed);
    // "" keeps the stored upstream password.
    await edit(proxy!.id, { upstream_password: "", upstream_port: 7002 });
    expect((await stored(proxy!.id))["upstream_password_encrypted"]).toBe(newSealed);

    const rows = (await audits("proxies.update")).filter((r) => r["target_id"] === proxy!.id);
    expect(rows.map((r) => r["details"])).toEqual([
      { changes: { exit: { from: "upstream", to: "direct" }, bind_address: { from: "", to: "2001:db8::7" } } },
      {
        changes: {
          exit: { from: "direct", to: "upstream" },
          upstream_host: { from: `${t}.test`, to: `new-${t}.test` },
          upstream_port: { from: 7000, to: 7001 },
          upstream_username: { from: "olduser", to: "newuser" },
          upstream_password: { changed: true },
        },
      },
      { changes: { upstream_port: { from: 7001, to: 7002 } } },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/OldUp-|NewUp-/);
    expect(JSON.stringify(await detail(proxy!.id))).not.toMatch(/OldUp-|NewUp-/);
  });

  it("refuses host and port, bad values, an incomplete upstream and a username in use, changing nothing", async () => {
    const t = tag();
    const [upstream] = await importUpstreams([`${t}.test:1:u:Pw1`], { type: "DATACENTER", country: "BR" });
    const { ids } = await generate({ type: "DATACENTER", country: "BR", quantity: 1 });
    const direct = ids[0]!;
    const gatewayMessage =
      "Host and port are the gateway's and cannot be edited: customers always connect to the gateway (its public host is a System Setting). Change where the proxy exits instead: exit, bind address or upstream.";
    const cases: [string, Record<string, unknown>, string, string][] = [
      [upstream!.id, { host: "elsewhere.test" }, "host", gatewayMessage],
      [upstream!.id, { port: 8080 }, "port", gatewayMessage],
      [upstream!.id, { exit: "sideways" }, "exit", "Exit must be direct or upstream"],
      [
        upstream!.id,
        { bind_address: "eth0" },
        "bind_address",
        "Bind address must be an IP address of the gateway's machine (IPv4 or IPv6), or empty",
      ],
      [upstream!.id, { upstream_port: 0 }, "upstream_port", "Upstream port must be a whole number from 1 to 65535"],
      [
        upstream!.id,
        { upstream_host: "bad host" },
        "upstream_host",
        "Upstream host must be a host name, an IPv4 address or an IPv6 address",
      ],
      [
        upstream!.id,
        { upstream_password: "has space" },
        "upstream_password",
        "Upstream password cannot contain spaces or control characters",
      ],
      [upstream!.id, { upstream_host: "" }, "upstream_host", "Upstream host is required for an upstream exit"],
      [direct, { exit: "upstream" }, "upstream_host", "Upstream host is required for an upstream exit"],
      [
        direct,
        { exit: "upstream", upstream_host: "up.test", upstream_port: 1, upstream_username: "x" },
        "upstream_password",
        "Upstream password is required for an upstream exit",
      ],
      [direct, { username: upstream!.username }, "username", "Username is already in use"],
    ];
    const before = [await stored(upstream!.id), await stored(direct)];
    for (const [id, body, field, message] of cases) {
      const err = await errorOf(() => edit(id, body));
      expect(err.status, JSON.stringify(body)).toBe(400);
      expect(err.message, JSON.stringify(body)).toBe(sentence(message));
      expect((fieldErrorsOf(err) as Record<string, { message: string }>)[field]?.message).toBe(sentence(message));
    }
    expect([await stored(upstream!.id), await stored(direct)]).toEqual(before);
    // The unique index holds for records-API writes too.
    const clash = await errorOf(() =>
      shop.su.collection("proxies").create({
        host: "x.test",
        port: 1,
        username: upstream!.username,
        password: "Pw-clash-0123456789",
        type: "HTTP",
        country: "US",
        status: "AVAILABLE",
      }),
    );
    expect(clash.status).toBe(400);
    expect(fieldErrorsOf(clash)["username"]).toMatchObject({ code: "validation_not_unique" });
  });
});

describe("the 1764600200 migration", () => {
  const dirs: string[] = [];
  let mailbox: TestMailbox;
  beforeAll(async () => {
    mailbox = await startTestMailbox();
  });
  afterAll(async () => {
    await mailbox.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (name: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `proxyshop-${name}-`));
    dirs.push(dir);
    return dir;
  };

  it("resolves username clashes, moves every proxy to the gateway keeping owners' credentials and upstreams, and mails each owner once", async () => {
    const oldMigrations = tempDir("gw-old-migrations");
    cpSync(MIGRATIONS_DIR, oldMigrations, { recursive: true });
    for (const file of readdirSync(oldMigrations)) if (file >= "1764600100") rmSync(path.join(oldMigrations, file));
    const dataDir = tempDir("gw-upgrade");
    // No gateway listener (its ports unset: the endpoint's are then 3128 and 1080), which
    // could not start on the schema before it anyway.
    const env = { SHOP_APP_URL: GATEWAY_ENV.SHOP_APP_URL, GATEWAY_HTTP_PORT: "", GATEWAY_SOCKS_PORT: "", ...smtpEnv(mailbox.sink) };

    let tpb: TestPocketBase = await startTestPocketBase(env, { dataDir, migrationsDir: oldMigrations });
    const rows: Record<string, RecordModel> = {};
    let owner: { id: string; email: string; password: string };
    let other: { id: string; email: string; password: string };
    try {
      const su = await tpb.superuser();
      owner = await createTestUser(su, { email: `owner-${randomUUID()}@api.test`, first_name: "Olga" });
      other = await createTestUser(su, { email: `other-${randomUUID()}@api.test` });
      const make = (name: string, host: string, port: number, username: string, type = "HTTP") =>
        su
          .collection("proxies")
          .create({ host, port, username, password: `Pw-${name}-0123456789`, type, country: "US", status: "AVAILABLE" })
          .then((r) => (rows[name] = r));
      await make("spare", "a.test", 1000, "shared"); // oldest, unsold
      await make("sold", "b.test", 2000, "shared"); // the owner's: keeps the username
      await make("later", "c.test", 3000, "shared", "SOCKS5");
      await make("solo", "d.test", 4000, "solo", "SOCKS5");
      await make("expired", "e.test", 5000, "lapsed");
      await make("untouched", "f.test", 6000, "free");
    } finally {
      await tpb.stop();
    }
    const future = iso(Date.now() + 10 * DAY);
    setProxyColumns(tpb, [rows["sold"]!.id, rows["solo"]!.id], { status: "ASSIGNED", assigned_to_user_id: owner!.id, expires_at: future });
    setProxyColumns(tpb, [rows["expired"]!.id], { status: "EXPIRED", assigned_to_user_id: other!.id, expires_at: iso(Date.now() - DAY) });
    setProxyColumns(tpb, [rows["later"]!.id], { created: iso(Date.now() + DAY) });

    tpb = await startTestPocketBase(env, { dataDir });
    try {
      const su = await tpb.superuser();
      const after: Record<string, RecordModel> = Object.fromEntries(
        await Promise.all(Object.entries(rows).map(async ([k, r]) => [k, await su.collection("proxies").getOne(r.id)])),
      );
      expect(after["sold"]!["username"]).toBe("shared");
      for (const name of ["spare", "later"]) {
        expect(after[name]!["username"]).not.toBe("shared");
        expect(after[name]!["username"]).toMatch(/^(htt|soc)_us_[a-z0-9]{12}$/);
      }
      expect(after["solo"]!["username"]).toBe("solo");
      for (const [name, row] of Object.entries(after)) {
        const old = rows[name]!;
        expect(row, name).toMatchObject({
          host: APP_HOST,
          port: old["type"] === "SOCKS5" ? DEFAULT_SOCKS_PORT : DEFAULT_HTTP_PORT,
          exit: "upstream",
          upstream_host: old["host"],
          upstream_port: old["port"],
          upstream_username: old["username"],
          endpoint_notice_pending: false,
        });
        expect(row["upstream_password_encrypted"]).toBe(old["password_encrypted"]);
      }
      // Owners keep the credentials they hold.
      const ownerPb = await signIn(tpb, owner!);
      const mine = await ownerPb.collection("proxies").getFullList({ sort: "username" });
      expect(mine.map((p) => [p["username"], p["password"], p["host"], p["port"]])).toEqual([
        ["shared", "Pw-sold-0123456789", APP_HOST, DEFAULT_HTTP_PORT],
        ["solo", "Pw-solo-0123456789", APP_HOST, DEFAULT_SOCKS_PORT],
      ]);

      const mail = await waitForMail(mailbox.sink, owner!.email, /new host and port/);
      expect(mail.subject).toBe("ProxyShop: Your proxies have a new host and port");
      expect(mail.text).toContain("Your username and password stay the same.");
      expect(mail.text).toContain(`shared: ${APP_HOST}:${DEFAULT_HTTP_PORT}`);
      expect(mail.text).toContain(`solo: ${APP_HOST}:${DEFAULT_SOCKS_PORT}`);
      expect(mail.text).toContain(`http://${APP_HOST}:4321/dashboard/proxies`);
      expect(mail.text).not.toContain("Pw-");
      await waitForMail(mailbox.sink, other!.email, /Your proxy has a new host and port/);
    } finally {
      await tpb.stop();
    }
    // Once: another start sends nothing more.
    tpb = await startTestPocketBase(env, { dataDir });
    await tpb.stop();
    const notices = mailbox.sink.messages.filter((m) => /new host and port/.test(m.subject));
    expect(notices.map((m) => m.to).sort()).toEqual([[owner!.email], [other!.email]].sort());
  }, 120_000);
});
