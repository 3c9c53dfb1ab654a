// My Proxies (/dashboard/proxies, spec 2.16) end to end in Chromium against the real
// backend, managing one proxy or a selection: the password masked until revealed, copying
// host:port, username and password, new credentials, renewal on the ledger (and the one
// the balance does not cover), the auto-renew switch, and how to connect (the gateway's
// ports, the lines to copy, the curl command against the shop's IP-echo endpoint, also on
// the dashboard's "Testing Your Proxies"), and this month's traffic against the proxy's
// limits (issue #16). Browsing is my-proxies.spec.ts.
import { expect, test } from "@playwright/test";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { formatDateUtc } from "@/lib/dates";
import { proxyTitle } from "@/lib/proxy-title";
import { adjustBalance, createCustomer, ledgerOf, signInAs, userClient } from "./support/customers.ts";
import { expectNoAxeViolations } from "./support/checks.ts";
import { E2E } from "./support/env.ts";
import { setE2eProxyColumns, superuserClient } from "./support/pocketbase.ts";
import { insertUsageRows } from "../support/usage-rows.ts";
import { buyProxies, cardOf, DAY_MS, endpointOf, ms, proxyInDb, unitPrices } from "./support/my-proxies.ts";
import { tag } from "./support/unique.ts";

test.describe("My Proxies", () => {
  // Arranging customers, stock and purchases takes a while on a shared 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("masks the password until revealed, copies host:port, username and password, and shows this month's traffic", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.baseUrl });
    const user = await createCustomer({ balanceCents: 10_000 });
    const [bought, spent] = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Bavaria ${tag()}`, count: 2 });
    const proxy = await proxyInDb(bought!.id);
    // The gateway's hourly rows (issue #16): 1.2 GB this month of a 10 GB quota with a cap; the other proxy's 1 GB quota used up.
    const GB = 2 ** 30;
    setE2eProxyColumns([bought!.id], { bandwidth_quota_bytes: 10 * GB, max_connections: 5 });
    setE2eProxyColumns([spent!.id], { bandwidth_quota_bytes: GB });
    const dataDir = process.env["E2E_DATA_DIR"]!;
    insertUsageRows({ dataDir }, [
      { proxy_id: bought!.id, user_id: user.id, hour: Date.now(), bytes_up: Math.round(0.2 * GB), bytes_down: GB, connections: 40 },
      { proxy_id: spent!.id, user_id: user.id, hour: Date.now(), bytes_down: GB, connections: 3, failed_connections: 1 },
    ]);
    await signInAs(page, user, "/dashboard/proxies");

    const card = cardOf(page, proxy);
    await expect(card.getByTestId("proxy-usage")).toContainText("This month: 1.2 GB of 10 GB");
    await expect(card.getByTestId("proxy-usage")).toContainText("Up to 5 connections at once");
    await expect(card.getByText(/Monthly quota used up/)).toHaveCount(0);
    await expect(card.getByTestId("proxy-failures")).toHaveCount(0);
    // The dashboard's one date format, 'MMM dd, yyyy' (issue #28).
    const renews = formatDateUtc(new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString());
    const spentUsage = cardOf(page, await proxyInDb(spent!.id)).getByTestId("proxy-usage");
    await expect(spentUsage).toContainText("This month: 1 GB of 1 GB");
    await expect(spentUsage).toContainText(`Monthly quota used up: new connections are refused until ${renews}`);
    // Failures are shown, not hidden (issue #28): how many, the latest and why.
    await expect(spentUsage.getByTestId("proxy-failures")).toContainText(
      /^1 failed connection this month; last [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}: A site it was asked to reach could not be reached\.$/,
    );

    const password = card.getByTestId("proxy-password");
    await expect(password).toContainText("••••");
    await expect(password).not.toContainText(proxy.password);
    await expect(page.getByText(proxy.password)).toHaveCount(0);
    await card.getByRole("button", { name: "Show password" }).click();
    await expect(password).toHaveText(proxy.password);
    await card.getByRole("button", { name: "Hide password" }).click();
    await expect(password).not.toContainText(proxy.password);

    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    for (const [label, value] of [
      ["Copy host and port", endpointOf(proxy)],
      ["Copy username", proxy.username],
      ["Copy password", proxy.password],
    ] as const) {
      const button = card.getByRole("button", { name: label });
      await button.click();
      await expect(button).toContainText("Copied!");
      expect(await clipboard()).toBe(value);
      // The notice goes away after 2 seconds.
      await expect(button).toContainText("Copy", { timeout: 5_000 });
      await expect(button).not.toContainText("Copied!");
    }
  });

  test("shows the gateway's ports and, under Connect, the lines and a curl command that reach the shop's IP-echo endpoint", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.baseUrl });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const user = await createCustomer({ balanceCents: 10_000 });
    const echo = `${E2E.baseUrl}/api/ip`;

    // Without a proxy the dashboard's example is plainly a template.
    await signInAs(page, user, "/dashboard");
    await expect(page.getByTestId("curl-example")).toHaveText(`curl -x http://USERNAME:PASSWORD@HOST:PORT ${echo}`);
    await expect(page.getByRole("button", { name: "Copy curl command" })).toHaveCount(0);

    const [bought] = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Saxony ${tag()}`, count: 1 });
    // As the customer's own answer has it (`ports` when the server sends them; else the HTTP port).
    const mine = (await (await userClient(user)).collection("proxies").getOne(bought!.id)) as unknown as ProxyRecord & {
      ports?: { http?: number; socks5?: number; https?: number };
    };
    const ports = mine.ports ?? { http: mine.port };
    const url = (scheme: string, port: number, password: string) => `${scheme}://${mine.username}:${password}@${mine.host}:${port}`;
    const curl = (password: string) => `curl -x ${url("http", ports.http!, password)} ${echo}`;

    await page.goto("/dashboard/proxies");
    const card = cardOf(page, mine);
    await expect(card.getByTestId("proxy-ports")).toHaveText(
      [`HTTP ${ports.http}`, ...(ports.socks5 ? [`SOCKS5 ${ports.socks5}`] : []), ...(ports.https ? [`HTTPS ${ports.https}`] : [])].join(
        " · ",
      ),
    );
    await expect(card.getByTestId("connect-lines")).toHaveCount(0);
    const connect = card.getByRole("button", { name: "Connect" });
    await connect.click();
    await expect(connect).toHaveAttribute("aria-expanded", "true");
    const lines = card.getByTestId("connect-lines");
    // The password stays masked on screen until revealed; every copy holds it.
    await expect(lines).toContainText(`${endpointOf(mine)}:${mine.username}:••••••••`);
    await expect(lines).toContainText(curl("••••••••"));
    await expect(page.getByText(mine.password)).toHaveCount(0);
    const copies: [string, string][] = [
      ["Copy host:port:user:pass", `${endpointOf(mine)}:${mine.username}:${mine.password}`],
      ["Copy HTTP proxy URL", url("http", ports.http!, mine.password)],
      ...(ports.https ? [["Copy HTTPS proxy URL", url("https", ports.https, mine.password)] as [string, string]] : []),
      ...(ports.socks5 ? [["Copy SOCKS5 proxy URL", url("socks5h", ports.socks5, mine.password)] as [string, string]] : []),
      ["Copy curl command", curl(mine.password)],
    ];
    for (const [label, value] of copies) {
      await card.getByRole("button", { name: label, exact: true }).click();
      await expect.poll(clipboard).toBe(value);
    }
    await card.getByRole("button", { name: "Show password" }).click();
    await expect(lines).toContainText(curl(mine.password));
    await expectNoAxeViolations(page, "My Proxies with a card's Connect lines open");
    // The command's target answers the caller's address.
    const answer = await page.request.get(echo);
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toMatch(/^[0-9a-f.:]+\n$/);

    // The dashboard's example is now this proxy's command.
    await page.goto("/dashboard");
    await expect(page.getByTestId("curl-example")).toHaveText(curl("••••••••"));
    await page.getByRole("button", { name: "Copy curl command" }).click();
    await expect.poll(clipboard).toBe(curl(mine.password));
  });

  test("regenerating credentials asks first, changes the password in the database and shows it", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 10_000 });
    const [bought] = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Hesse ${tag()}`, count: 1 });
    const before = await proxyInDb(bought!.id);
    await signInAs(page, user, "/dashboard/proxies");

    const card = cardOf(page, before);
    await card.getByRole("button", { name: "Regenerate credentials" }).click();
    const dialog = page.getByRole("dialog", { name: "Regenerate credentials?" });
    await expect(dialog).toContainText(endpointOf(before));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await proxyInDb(before.id)).password).toBe(before.password);

    await card.getByRole("button", { name: "Regenerate credentials" }).click();
    await page.getByRole("dialog", { name: "Regenerate credentials?" }).getByRole("button", { name: "Regenerate" }).click();
    await expect(card.getByText("New credentials issued")).toBeVisible();
    await expect.poll(async () => (await proxyInDb(before.id)).password).not.toBe(before.password);
    const after = await proxyInDb(before.id);
    expect(after.password).toMatch(/^[A-Za-z0-9]{20}$/);
    await expect(card.getByTestId("proxy-password")).toHaveText(after.password);
    expect(after.username).toBe(before.username);
  });

  test("renews one proxy and a selection of two, each once on the ledger; auto-renew persists", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 10_000 });
    const bought = await buyProxies(user, { type: "RESIDENTIAL", country: "US", state: `Texas ${tag()}`, count: 3 });
    const price = (await unitPrices(user))["RESIDENTIAL"]!;
    const [a, b, c] = await Promise.all(bought.map((p) => proxyInDb(p.id)));
    const ledgerRows = async () => {
      const su = await superuserClient();
      return su.collection("transactions").getFullList({ filter: su.filter("user_id = {:id}", { id: user.id }), sort: "created" });
    };
    const startBalance = (await ledgerOf(user.id)).balance;
    const startRows = (await ledgerRows()).length;
    await signInAs(page, user, "/dashboard/proxies");

    // One proxy, from its card: the dialog prices it against the live balance.
    await cardOf(page, a!).getByRole("button", { name: "Renew", exact: true }).click();
    let dialog = page.getByRole("dialog", { name: "Renew 1 proxy" });
    await expect(dialog.getByTestId("renewal-total")).toHaveText(`$${(price / 100).toFixed(2)}`);
    await expect(dialog.getByTestId("renewal-balance")).toHaveText(`$${(startBalance / 100).toFixed(2)}`);
    await dialog.getByRole("button", { name: `Renew for $${(price / 100).toFixed(2)}` }).click();
    await expect(page.getByText(/^Renewed 1 proxy for 30 days\. Your balance is now/)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    const renewedA = await proxyInDb(a!.id);
    expect(ms(renewedA.expires_at) - ms(a!.expires_at)).toBe(30 * DAY_MS);
    expect((await proxyInDb(b!.id)).expires_at).toBe(b!.expires_at);
    let ledger = await ledgerOf(user.id);
    expect(ledger.balance).toBe(startBalance - price);
    expect(ledger.sum).toBe(ledger.balance);
    let rows = await ledgerRows();
    expect(rows).toHaveLength(startRows + 1);
    expect(rows.at(-1)).toMatchObject({ type: "PROXY_PURCHASE", amount_cents: -price });
    expect(rows.at(-1)!.description).toMatch(/^Renewed 1 proxy for 30 days/);

    // A selection of two.
    await cardOf(page, b!)
      .getByRole("checkbox", { name: `Select ${proxyTitle(b!)}` })
      .check();
    await cardOf(page, c!)
      .getByRole("checkbox", { name: `Select ${proxyTitle(c!)}` })
      .check();
    await expect(page.getByText("2 proxies selected")).toBeVisible();
    await page.getByRole("button", { name: "Renew selected" }).click();
    dialog = page.getByRole("dialog", { name: "Renew 2 proxies" });
    await expect(dialog.getByTestId("renewal-total")).toHaveText(`$${((2 * price) / 100).toFixed(2)}`);
    await expect(dialog.getByTestId("renewal-balance")).toHaveText(`$${((startBalance - price) / 100).toFixed(2)}`);
    await dialog.getByRole("button", { name: /^Renew for/ }).click();
    await expect(page.getByText(/^Renewed 2 proxies for 30 days\./)).toBeVisible();
    await expect(page.getByText("2 proxies selected")).toHaveCount(0);
    for (const before of [b!, c!]) {
      expect(ms((await proxyInDb(before.id)).expires_at) - ms(before.expires_at)).toBe(30 * DAY_MS);
    }
    expect(ms((await proxyInDb(a!.id)).expires_at)).toBe(ms(renewedA.expires_at));
    ledger = await ledgerOf(user.id);
    expect(ledger.balance).toBe(startBalance - 3 * price);
    expect(ledger.sum).toBe(ledger.balance);
    rows = await ledgerRows();
    expect(rows).toHaveLength(startRows + 2);
    expect(rows.at(-1)).toMatchObject({ type: "PROXY_PURCHASE", amount_cents: -2 * price });

    // The switch writes auto_renew and shows what the server keeps.
    const toggle = cardOf(page, a!).getByRole("switch", { name: "Auto-renew" });
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    // It says so (issue #15: the switch gave no feedback).
    await expect(cardOf(page, a!).getByRole("status")).toHaveText(`Auto-renew on for ${a!.host}:${a!.port}.`);
    await expect.poll(async () => (await proxyInDb(a!.id)).auto_renew).toBe(true);
    await page.reload();
    await expect(cardOf(page, a!).getByRole("switch", { name: "Auto-renew" })).toHaveAttribute("aria-checked", "true");
    expect((await proxyInDb(b!.id)).auto_renew).toBe(false);
    await cardOf(page, a!).getByRole("switch", { name: "Auto-renew" }).click();
    await expect(cardOf(page, a!).getByRole("switch", { name: "Auto-renew" })).toHaveAttribute("aria-checked", "false");
    await expect(cardOf(page, a!).getByRole("status")).toHaveText(`Auto-renew off for ${a!.host}:${a!.port}.`);
    await expect.poll(async () => (await proxyInDb(a!.id)).auto_renew).toBe(false);
  });

  test("a renewal the balance does not cover is not offered", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 0 });
    const price = (await unitPrices(user))["DATACENTER"]!;
    await adjustBalance(user.id, price);
    const [bought] = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Saxony ${tag()}`, count: 1 });
    await signInAs(page, user, "/dashboard/proxies");
    await cardOf(page, bought!).getByRole("button", { name: "Renew", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Renew 1 proxy" });
    await expect(dialog.getByText(`Insufficient balance. Need $${(price / 100).toFixed(2)} more.`)).toBeVisible();
    await expect(dialog.getByRole("button", { name: /^Renew for/ })).toBeDisabled();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await ledgerOf(user.id)).balance).toBe(0);
  });
});
