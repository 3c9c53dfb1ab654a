// Exits and customer credentials on the shop's gateway (issue #16): import takes UPSTREAM
// lines and gives each proxy the shop's own credentials on the gateway's endpoint, the
// upstream password in no answer; generate makes direct proxies spread over the bind
// addresses; regenerate, release and refund change only the customer's password; usernames
// are unique; the gateway settings are checked. The console's edits of an exit are in
// gateway-exit-edits.test.ts, the 1764600200 migration in gateway-migration.test.ts.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, post, purchase, type Customer } from "../support/shop.ts";
import { APP_HOST, exitsConsole, useExitsShop } from "./cases/gateway-exits-kit.ts";

const shop = await useExitsShop();
const [HTTP_PORT, SOCKS_PORT, HTTPS_PORT] = [shop.gateway.http, shop.gateway.socks, shop.gateway.https];
const { sentence, tag, list, detail, importText, edit, generate, stored, audits, putSettings, importUpstreams } = exitsConsole(shop);
let buyer: Customer;

beforeAll(async () => {
  buyer = await customer(shop, 100_000);
});

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
      expect(p["ports"]).toEqual({ http: HTTP_PORT, https: HTTPS_PORT });
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

  it("answers the SOCKS5 port for SOCKS5 proxies and all three for residential ones", async () => {
    const t = tag();
    const [socks] = await importUpstreams([`${t}-s.test:1080:s1:PwS1`], { type: "SOCKS5" });
    const [resi] = await importUpstreams([`${t}-r.test:8000:r1:PwR1`], { type: "RESIDENTIAL", country: "DE" });
    expect(socks).toMatchObject({ host: APP_HOST, port: SOCKS_PORT });
    expect(resi).toMatchObject({ host: APP_HOST, port: HTTP_PORT });
    const s = await purchase(buyer.pb, { type: "SOCKS5", country: "Unknown", quantity: 1 });
    expect(s.proxies[0]).toMatchObject({ id: socks!.id, port: SOCKS_PORT, ports: { socks5: SOCKS_PORT } });
    expect(s.proxies[0]!["ports"]).toEqual({ socks5: SOCKS_PORT });
    const r = await purchase(buyer.pb, { type: "RESIDENTIAL", country: "DE", quantity: 1 });
    expect(r.proxies[0]!["ports"]).toEqual({ http: HTTP_PORT, socks5: SOCKS_PORT, https: HTTPS_PORT });
    expect((await buyer.pb.collection("proxies").getOne(resi!.id))["ports"]).toEqual({
      http: HTTP_PORT,
      socks5: SOCKS_PORT,
      https: HTTPS_PORT,
    });
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
