// My Proxies (/dashboard/proxies, spec 2.16) end to end in Chromium against the real
// backend: proxies bought through the purchase route, then listed, searched, filtered,
// revealed, copied, given new credentials, renewed, switched to auto-renew and exported.
import { readFile } from "node:fs/promises";
import { expect, test, type Download, type Locator, type Page } from "@playwright/test";
import { format } from "date-fns";
import Papa from "papaparse";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import PocketBase from "pocketbase";
import type { TestUser } from "../support/pocketbase.ts";
import { addStock, adjustBalance, createCustomer, ledgerOf, signInAs } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { setE2eProxyColumns, superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { tag } from "./support/unique.ts";

const DAY_MS = 86_400_000;
/** A PocketBase date ("2026-01-02 03:04:05.678Z") in milliseconds. */
const ms = (date: string): number => Date.parse(date.replace(" ", "T"));

/** A PocketBase client signed in as the customer (the way a script of theirs would be). */
async function customerClient(user: TestUser): Promise<PocketBase> {
  const pb = new PocketBase(E2E.pocketbaseUrl);
  pb.autoCancellation(false);
  await pb.collection("users").authWithPassword(user.email, user.password);
  return pb;
}

/** Puts proxies into stock at a place of their own and buys them all through the real route. */
async function buyProxies(
  user: TestUser,
  place: { type: string; country: string; state: string; city?: string; count: number },
): Promise<ProxyRecord[]> {
  await addStock(place);
  const pb = await customerClient(user);
  const res = await pb.send("/api/v1/proxies/purchase", {
    method: "POST",
    headers: { "Idempotency-Key": crypto.randomUUID() },
    body: { type: place.type, country: place.country, state: place.state, city: place.city ?? "", quantity: place.count },
  });
  expect(res.proxies).toHaveLength(place.count);
  return res.proxies as ProxyRecord[];
}

async function proxyInDb(id: string): Promise<ProxyRecord> {
  const su = await superuserClient();
  return (await su.collection("proxies").getOne(id)) as unknown as ProxyRecord;
}

async function unitPrices(user: TestUser): Promise<Record<string, number>> {
  return (await customerClient(user)).send("/api/v1/proxies/prices", {});
}

const endpointOf = (p: Pick<ProxyRecord, "host" | "port">): string => `${p.host}:${p.port}`;
const cardOf = (page: Page, p: Pick<ProxyRecord, "host" | "port">): Locator => page.getByRole("article", { name: endpointOf(p) });
const cards = (page: Page): Locator => page.getByTestId("proxy-card");
const countText = (page: Page): Locator => page.getByTestId("proxy-count");

async function downloadFrom(page: Page, button: string): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return { download, text: await readFile(await download.path(), "utf8") };
}

test.describe("My Proxies", () => {
  // Arranging customers, stock and purchases takes a while on a shared 2-core machine.
  test.describe.configure({ timeout: 120_000 });

  test("lists only my proxies, with search, type and country filters, the count and both empty states", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 50_000 });
    const other = await createCustomer({ balanceCents: 10_000 });
    await signInAs(page, user, "/dashboard/proxies");

    await expect(page.getByRole("heading", { name: "My Proxies" })).toBeVisible();
    await expect(page.getByText("No proxies yet")).toBeVisible();
    await expect(page.getByText("Purchase your first proxy to get started")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Buy Proxies" })).toHaveAttribute("href", "/dashboard/buy-proxies");
    await expect(countText(page)).toHaveText("0 of 0 proxies");

    const t = tag();
    const residential = await buyProxies(user, { type: "RESIDENTIAL", country: "US", state: "California", city: `Fresno ${t}`, count: 3 });
    const datacenter = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Berlin ${t}`, count: 2 });
    const foreign = await buyProxies(other, { type: "DATACENTER", country: "FR", state: `Provence ${t}`, count: 1 });

    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(countText(page)).toHaveText("5 of 5 proxies");
    await expect(cards(page)).toHaveCount(5);
    for (const p of [...residential, ...datacenter]) await expect(cardOf(page, p)).toBeVisible();
    await expect(cardOf(page, foreign[0]!)).toHaveCount(0);
    const first = cardOf(page, residential[0]!);
    await expect(first.getByText("Active", { exact: true })).toBeVisible();
    await expect(first.getByText(`Residential · Fresno ${t}, California, US`)).toBeVisible();
    await expect(first.getByText(/^Expires [A-Z][a-z]{2} \d{2}, \d{4} · 30 days left$/)).toBeVisible();

    // The country filter offers the countries of my proxies only.
    const country = page.getByLabel("Country", { exact: true });
    await expect(country.locator("option")).toHaveText(["All countries", "Germany (DE)", "United States (US)"]);

    // Search runs on the server over host, username, country, state and city.
    const search = page.getByLabel("Search", { exact: true });
    await search.fill(`berlin ${t}`);
    await expect(countText(page)).toHaveText("2 of 5 proxies");
    await expect(cards(page)).toHaveCount(2);
    for (const p of datacenter) await expect(cardOf(page, p)).toBeVisible();
    await search.fill(`fresno ${t}`);
    await expect(countText(page)).toHaveText("3 of 5 proxies");
    await search.fill(residential[1]!.username);
    await expect(countText(page)).toHaveText("1 of 5 proxies");
    await expect(cardOf(page, residential[1]!)).toBeVisible();
    await search.fill(residential[0]!.host);
    await expect(countText(page)).toHaveText("3 of 5 proxies");
    await search.fill("");
    await expect(countText(page)).toHaveText("5 of 5 proxies");

    const type = page.getByLabel("Type", { exact: true });
    await type.selectOption({ label: "Residential" });
    await expect(countText(page)).toHaveText("3 of 5 proxies");
    await expect(cards(page)).toHaveCount(3);
    await type.selectOption({ label: "Datacenter" });
    await expect(countText(page)).toHaveText("2 of 5 proxies");
    await country.selectOption("DE");
    await expect(countText(page)).toHaveText("2 of 5 proxies");
    await type.selectOption({ label: "Residential" });
    await expect(countText(page)).toHaveText("0 of 5 proxies");
    await expect(page.getByText("No matching proxies")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria")).toBeVisible();
    await type.selectOption({ label: "SOCKS5" });
    await country.selectOption("");
    await expect(countText(page)).toHaveText("0 of 5 proxies");
    await type.selectOption({ label: "All types" });
    await country.selectOption("US");
    await expect(countText(page)).toHaveText("3 of 5 proxies");
    await search.fill("no-such-proxy");
    await expect(page.getByText("No matching proxies")).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(countText(page)).toHaveText("5 of 5 proxies");
    await expect(search).toHaveValue("");
  });

  test("masks the password until revealed and copies host:port, username and password", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: E2E.baseUrl });
    const user = await createCustomer({ balanceCents: 10_000 });
    const [bought] = await buyProxies(user, { type: "DATACENTER", country: "DE", state: `Bavaria ${tag()}`, count: 1 });
    const proxy = await proxyInDb(bought!.id);
    await signInAs(page, user, "/dashboard/proxies");

    const card = cardOf(page, proxy);
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
      .getByRole("checkbox", { name: `Select ${endpointOf(b!)}` })
      .check();
    await cardOf(page, c!)
      .getByRole("checkbox", { name: `Select ${endpointOf(c!)}` })
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
    await expect.poll(async () => (await proxyInDb(a!.id)).auto_renew).toBe(true);
    await page.reload();
    await expect(cardOf(page, a!).getByRole("switch", { name: "Auto-renew" })).toHaveAttribute("aria-checked", "true");
    expect((await proxyInDb(b!.id)).auto_renew).toBe(false);
    await cardOf(page, a!).getByRole("switch", { name: "Auto-renew" }).click();
    await expect(cardOf(page, a!).getByRole("switch", { name: "Auto-renew" })).toHaveAttribute("aria-checked", "false");
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

  test("exports every matching proxy as CSV (quoted, neutralised) and as the two plain lists", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 100_000 });
    const t = tag();
    // More than one page (12 a page): the export reads them all.
    const residential = await buyProxies(user, { type: "RESIDENTIAL", country: "US", state: "New York", city: `Albany ${t}`, count: 13 });
    const datacenter = await buyProxies(user, { type: "DATACENTER", country: "UK", state: `Wales ${t}`, count: 2 });
    const su = await superuserClient();
    await su.collection("proxies").update(datacenter[0]!.id, { city: '=HYPERLINK("x")' });
    const all = await su.collection("proxies").getFullList({ filter: su.filter("assigned_to_user_id = {:id}", { id: user.id }) });
    const byId = new Map(all.map((p) => [p.id, p as unknown as ProxyRecord]));
    await signInAs(page, user, "/dashboard/proxies");
    await expect(countText(page)).toHaveText("15 of 15 proxies");
    await expect(cards(page)).toHaveCount(12);

    const stamp = format(new Date(), "yyyy-MM-dd");
    const { download, text } = await downloadFrom(page, "Export CSV");
    expect(download.suggestedFilename()).toBe(`proxies-${stamp}.csv`);
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe('"Host","Port","Username","Password","Type","Country","State","City","Status"');
    expect(lines).toHaveLength(16);
    for (const line of lines) expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*"){8}$/);
    const parsed = Papa.parse<string[]>(text.trim()).data.slice(1);
    const expected = [...residential, ...datacenter].map((p) => {
      const r = byId.get(p.id)!;
      return [
        r.host,
        String(r.port),
        r.username,
        r.password,
        r.type,
        r.country,
        r.state,
        r.city.startsWith("=") ? `'${r.city}` : r.city,
        r.status,
      ];
    });
    expect(parsed.slice().sort()).toEqual(expected.slice().sort());
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);

    const colon = await downloadFrom(page, "Export host:port:username:password");
    expect(colon.download.suggestedFilename()).toBe(`proxies-${stamp}.txt`);
    expect(colon.text.trim().split("\n").sort()).toEqual(
      all.map((p) => `${p["host"]}:${p["port"]}:${p["username"]}:${p["password"]}`).sort(),
    );

    const url = await downloadFrom(page, "Export username:password@host:port");
    expect(url.download.suggestedFilename()).toBe(`proxies-auth-${stamp}.txt`);
    expect(url.text.trim().split("\n").sort()).toEqual(
      all.map((p) => `${p["username"]}:${p["password"]}@${p["host"]}:${p["port"]}`).sort(),
    );

    // Only what matches the filters.
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Datacenter" });
    await expect(countText(page)).toHaveText("2 of 15 proxies");
    const filtered = await downloadFrom(page, "Export CSV");
    const filteredRows = Papa.parse<string[]>(filtered.text.trim()).data.slice(1);
    expect(filteredRows.map((r) => r[2]).sort()).toEqual(datacenter.map((p) => p.username).sort());
  });

  test("with 1,000 proxies it shows the first page and the right counts", async ({ page }) => {
    test.setTimeout(240_000);
    const user = await createCustomer();
    const su = await superuserClient();
    const t = tag();
    const expires = new Date(Date.now() + 20 * DAY_MS).toISOString().replace("T", " ");
    const make = (i: number) =>
      su.collection("proxies").create({
        host: `bulk-${t}.e2e.test`,
        port: 20000 + i,
        username: `bulk${t}n${i}`,
        password: `Pw${t}${i}`,
        type: i % 4 === 0 ? "DATACENTER" : "RESIDENTIAL",
        country: i % 2 === 0 ? "US" : "CA",
        state: "",
        city: "",
        status: "AVAILABLE",
      });
    const ids: string[] = [];
    for (let start = 0; start < 1000; start += 20) {
      ids.push(...(await Promise.all(Array.from({ length: 20 }, (_, k) => make(start + k)))).map((p) => p.id));
    }
    // Owner and expiry are the server's (the records API refuses them): set in data.db.
    setE2eProxyColumns(ids, { status: "ASSIGNED", assigned_to_user_id: user.id, expires_at: expires });

    await signInAs(page, user, "/dashboard/proxies");
    await expect(countText(page)).toHaveText("1,000 of 1,000 proxies");
    await expect(cards(page)).toHaveCount(12);
    await expect(page.getByText("84 pages in all")).toBeVisible();
    const firstPage = await cards(page).getByRole("heading").allTextContents();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Page 2", { exact: true })).toBeVisible();
    await expect(cards(page)).toHaveCount(12);
    const secondPage = await cards(page).getByRole("heading").allTextContents();
    expect(secondPage.filter((h) => firstPage.includes(h))).toEqual([]);

    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Datacenter" });
    await expect(countText(page)).toHaveText("250 of 1,000 proxies");
    await expect(page.getByText("Page 1", { exact: true })).toBeVisible();
    await page.getByLabel("Country", { exact: true }).selectOption("CA");
    await expect(countText(page)).toHaveText("0 of 1,000 proxies");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "All types" });
    await expect(countText(page)).toHaveText("500 of 1,000 proxies");
    await page.getByLabel("Search", { exact: true }).fill(`bulk${t}n777`);
    await expect(countText(page)).toHaveText("1 of 1,000 proxies");
  });

  test("fits a 360 px screen without horizontal scrolling and has no detectable accessibility violations", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 10_000 });
    await buyProxies(user, {
      type: "RESIDENTIAL",
      country: "US",
      state: `Oregon ${tag()}`,
      city: "Portland with a rather long city name",
      count: 1,
    });
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAs(page, user, "/dashboard/proxies");
    await expect(cards(page)).toHaveCount(1);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  });
});
