// My Proxies (/dashboard/proxies, spec 2.16) end to end in Chromium against the real
// backend, browsing: proxies bought through the purchase route, then listed, searched,
// filtered, paged (1,000 of them), exported, and shown on a 360 px screen. Managing one
// proxy (reveal, copy, new credentials, renewal, auto-renew) is my-proxies-manage.spec.ts.
import { expect, test } from "@playwright/test";
import { format } from "date-fns";
import Papa from "papaparse";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { createCustomer, signInAs } from "./support/customers.ts";
import { setE2eProxyColumns, superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { buyProxies, cardOf, cards, countText, DAY_MS, downloadFrom } from "./support/my-proxies.ts";
import { tag } from "./support/unique.ts";

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
    // Titled by place and username, not the gateway's host:port every card shares (issue #28).
    await expect(first.getByRole("heading")).toHaveText(`Fresno ${t}, United States · ${residential[0]!.username}`);
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
    expect(lines[0]).toBe('"Host","Port","Username","Password","Type","Country","State","City","Status","Expires (UTC)"');
    expect(lines).toHaveLength(16);
    for (const line of lines) expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*"){9}$/);
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
        // The status as the cards say it, the expiry in ISO 8601 UTC.
        "Active",
        new Date(r.expires_at.replace(" ", "T")).toISOString().replace(/\.\d{3}Z$/, "Z"),
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
