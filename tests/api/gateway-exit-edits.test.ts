// The console's edits of where a proxy exits (issue #16): PATCH /api/admin/proxies/{id}
// changes the exit, the bind address and the upstream (its password sealed), never the host
// and port the customer connects to, and refuses bad values and a username in use.
import { describe, expect, it } from "vitest";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { iso, setProxyColumns, proxyFields } from "../support/shop.ts";
import { APP_HOST, exitsConsole, useExitsShop } from "./cases/gateway-exits-kit.ts";

const shop = await useExitsShop();
const HTTP_PORT = shop.gateway.http;
const { sentence, tag, detail, edit, generate, stored, audits, importUpstreams } = exitsConsole(shop);

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
      shop.su
        .collection("proxies")
        .create(proxyFields({ host: "x.test", port: 1, username: upstream!.username, password: "Pw-clash-0123456789" })),
    );
    expect(clash.status).toBe(400);
    expect(fieldErrorsOf(clash)["username"]).toMatchObject({ code: "validation_not_unique" });
  });
});
