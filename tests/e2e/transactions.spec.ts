// Transaction History (/dashboard/transactions, spec 2.17) end to end in Chromium: real
// ledger rows made by the admin balance route and a proxy purchase, paged, searched and
// filtered on the server, signed and coloured by type, and exported as CSV.
import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import Papa from "papaparse";
import type { TestUser } from "../support/pocketbase.ts";
import { addStock, adjustBalance, createCustomer, signInAs, userClient } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

// Dates show in the browser's time zone: pin it, and format the expected ones in UTC.
test.use({ timezoneId: "UTC" });

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** 'MMM dd, yyyy HH:mm' of a PocketBase date, in UTC. */
function utcDateTime(value: string): string {
  const d = new Date(value.replace(" ", "T"));
  const two = (n: number) => String(n).padStart(2, "0");
  return `${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

const rows = (page: Page): Locator => page.getByTestId("transaction-row");
const rowWith = (page: Page, text: string): Locator => rows(page).filter({ hasText: text });

async function buyOneProxy(user: TestUser): Promise<void> {
  const state = `Ontario ${Date.now().toString(36)}`;
  await addStock({ type: "DATACENTER", country: "CA", state, count: 1 });
  const pb = await userClient(user);
  await pb.send("/api/v1/proxies/purchase", {
    method: "POST",
    headers: { "Idempotency-Key": crypto.randomUUID() },
    body: { type: "DATACENTER", country: "CA", state, quantity: 1 },
  });
}

async function ledger(userId: string) {
  const su = await superuserClient();
  return su.collection("transactions").getFullList({ filter: su.filter("user_id = {:id}", { id: userId }), sort: "-created,-id" });
}

test.describe("Transaction History", () => {
  test.describe.configure({ timeout: 120_000 });

  test("shows the empty state for a new account, and the filter hint when filters match nothing", async ({ page }) => {
    const user = await createCustomer();
    await signInAs(page, user, "/dashboard/transactions");
    await expect(page.getByRole("heading", { name: "Transaction History" })).toBeVisible();
    await expect(page.getByText("No transactions found")).toBeVisible();
    await expect(page.getByText("Your transaction history will appear here")).toBeVisible();
    await expect(page.getByRole("button", { name: "Next" })).toHaveCount(0);

    await adjustBalance(user.id, 500, "First top-up");
    await page.reload();
    await expect(rows(page)).toHaveCount(1);
    await page.getByLabel("Search", { exact: true }).fill("nothing like this");
    await expect(page.getByText("No transactions found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria")).toBeVisible();
    await expect(page.getByText("Your transaction history will appear here")).toHaveCount(0);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(rows(page)).toHaveCount(1);
  });

  test("pages, searches and filters on the server, signs and colours amounts, and exports every matching row", async ({ page }) => {
    const user = await createCustomer();
    for (let i = 1; i <= 22; i++) await adjustBalance(user.id, 1000, `Top-up ${i}`);
    await adjustBalance(user.id, -200, "Service fee A");
    await adjustBalance(user.id, -200, "Service fee B");
    await adjustBalance(user.id, -100, '=HYPERLINK("evil")');
    await buyOneProxy(user);
    const all = await ledger(user.id);
    expect(all).toHaveLength(26);
    // Another customer's rows never show.
    const other = await createCustomer({ balanceCents: 777 });

    await signInAs(page, user, "/dashboard/transactions");
    await expect(rows(page)).toHaveCount(20);
    // Newest first, dates as 'MMM dd, yyyy HH:mm'.
    const shown = await rows(page).getByTestId("transaction-date").allTextContents();
    expect(shown).toEqual(all.slice(0, 20).map((r) => utcDateTime(r["created"])));
    for (const text of shown) expect(text).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}$/);
    await expect(rowWith(page, "e2e funding")).toHaveCount(0);
    expect(other.id).not.toBe(user.id);

    // Signs and colours: credits green and positive, debits and purchases red and negative.
    const purchase = rowWith(page, "Purchased 1 Datacenter proxy");
    await expect(purchase.getByTestId("transaction-amount")).toHaveText(`-$${(-all[0]!["amount_cents"] / 100).toFixed(2)}`);
    await expect(purchase.getByTestId("transaction-amount")).toHaveClass(/text-red-700/);
    await expect(purchase.getByText("Proxy Purchase", { exact: true })).toBeVisible();
    const fee = rowWith(page, "Service fee A");
    await expect(fee.getByTestId("transaction-amount")).toHaveText("-$2.00");
    await expect(fee.getByTestId("transaction-amount")).toHaveClass(/text-red-700/);
    const credit = rowWith(page, "Top-up 22");
    await expect(credit.getByTestId("transaction-amount")).toHaveText("+$10.00");
    await expect(credit.getByTestId("transaction-amount")).toHaveClass(/text-green-700/);
    await expect(credit.getByText("Credit", { exact: true })).toBeVisible();

    // Previous and Next: 26 rows are 20 + 6.
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(rows(page)).toHaveCount(6);
    await expect(rowWith(page, "Top-up 1").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(rows(page)).toHaveCount(20);
    await expect(rowWith(page, "Top-up 22")).toBeVisible();

    // Search on the description.
    const search = page.getByLabel("Search", { exact: true });
    await search.fill("service fee");
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Next" })).toHaveCount(0);
    await search.fill("Top-up 2");
    await expect(rows(page)).toHaveCount(4); // 2, 20, 21, 22
    await search.fill("");
    await expect(rows(page)).toHaveCount(20);

    // Type filter.
    const type = page.getByLabel("Type", { exact: true });
    await expect(type.locator("option")).toHaveText(["All", "Credits Added", "Debits", "Proxy Purchases", "Refunds"]);
    await type.selectOption({ label: "Debits" });
    await expect(rows(page)).toHaveCount(3);
    await type.selectOption({ label: "Proxy Purchases" });
    await expect(rows(page)).toHaveCount(1);
    await type.selectOption({ label: "Refunds" });
    await expect(page.getByText("No transactions found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria")).toBeVisible();
    await type.selectOption({ label: "Credits Added" });
    await expect(rows(page)).toHaveCount(20);
    await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();

    // Export: every row matching the filters (22 credits, more than the page), quoted.
    const exportCsv = async () => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
      return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
    };
    const today = new Date().toISOString().slice(0, 10);
    const credits = await exportCsv();
    expect(credits.name).toBe(`transactions-${today}.csv`);
    const creditLines = credits.text.trim().split("\r\n");
    expect(creditLines[0]).toBe('"Date","Type","Amount","Description","Stripe Payment ID"');
    expect(creditLines).toHaveLength(23);
    for (const line of creditLines) expect(line).toMatch(/^"(?:[^"]|"")*"(?:,"(?:[^"]|"")*"){4}$/);
    const creditRows = Papa.parse<string[]>(credits.text.trim()).data.slice(1);
    expect(creditRows).toEqual(
      all.filter((r) => r["type"] === "CREDIT").map((r) => [utcDateTime(r["created"]), "CREDIT", "10.00", r["description"], ""]),
    );

    await type.selectOption({ label: "All" });
    await expect(rows(page)).toHaveCount(20);
    const everything = await exportCsv();
    const everyRow = Papa.parse<string[]>(everything.text.trim()).data.slice(1);
    expect(everyRow).toHaveLength(26);
    expect(everyRow).toContainEqual([utcDateTime(all[1]!["created"]), "DEBIT", "-1.00", `'=HYPERLINK("evil")`, ""]);
    expect(everyRow[0]).toEqual([
      utcDateTime(all[0]!["created"]),
      "PROXY_PURCHASE",
      (all[0]!["amount_cents"] / 100).toFixed(2),
      all[0]!["description"],
      "",
    ]);
  });

  test("fits a 360 px screen without horizontal scrolling and has no detectable accessibility violations", async ({ page }) => {
    const user = await createCustomer({ balanceCents: 1234 });
    await adjustBalance(user.id, 1000, "A rather long description of a credit that has to wrap on a narrow phone screen");
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAs(page, user, "/dashboard/transactions");
    await expect(rows(page)).toHaveCount(2);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  });
});
