// The admin's forms say what is wrong in words (issue #15, "The admin's tools" and "Smaller
// defects"): the balance dialog names a negative amount, a fraction of a cent and the
// $1,000,000.00 limit; Generate says "at least 1" for -2; the plan form names the $10,000.00
// maximum and the public plan card keeps even that price inside it; one imported proxy is
// "1 proxy" and a customer holding one sees "1 of 1 proxy".
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createAdmin, createCustomer, signInAs } from "./support/customers.ts";
import { buyProxies } from "./support/my-proxies.ts";
import { openAddPlan, submitPlan } from "./support/plans.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { tag } from "./support/unique.ts";

test.describe.configure({ timeout: 90_000 });

/** The element's right edge stays inside `box`'s (the card never overflows). */
async function expectInside(inner: Locator, box: Locator): Promise<void> {
  const [a, b] = await Promise.all([inner.boundingBox(), box.boundingBox()]);
  expect(a && b, "both are on screen").toBeTruthy();
  expect(a!.x).toBeGreaterThanOrEqual(b!.x - 0.5);
  expect(a!.x + a!.width).toBeLessThanOrEqual(b!.x + b!.width + 0.5);
}

async function openBalanceDialog(page: Page, email: string) {
  await page.getByLabel("Search").fill(email);
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(page.getByTestId("user-row")).toHaveCount(1);
  await row.getByRole("button", { name: `Adjust balance of ${email}` }).click();
  return page.getByRole("dialog", { name: "Adjust balance" });
}

test("the balance dialog says why an amount is refused, with the limit", async ({ page }) => {
  const admin = await createAdmin();
  const customer = await createCustomer({ firstName: "Limits" });
  await signInAs(page, admin, "/console/users");
  const dialog = await openBalanceDialog(page, customer.email);
  const amount = dialog.getByLabel("Amount (USD)");
  const credit = dialog.getByRole("button", { name: "Credit", exact: true });
  const debit = dialog.getByRole("button", { name: "Debit", exact: true });
  await dialog.getByLabel("Description").fill("Limit check");

  const cases: [string, string][] = [
    ["-50", "Amount must be greater than $0.00; use Debit to take money away"],
    ["0.001", "Amount cannot have fractions of a cent (at most 2 decimal places)"],
    ["100000000", "Amount must be at most $1,000,000.00 per adjustment"],
  ];
  for (const [typed, message] of cases) {
    await amount.fill(typed);
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(credit).toBeDisabled();
    await expect(debit).toBeDisabled();
  }

  // A valid amount clears the message and goes through.
  await amount.fill("12.34");
  await expect(dialog.getByText("Amount must be at most")).toBeHidden();
  await credit.click();
  await expect(page.getByText(`Successfully credited $12.34 to ${customer.email}`)).toBeVisible();
});

test("Generate says 'at least 1' for a negative quantity; one imported proxy is '1 proxy'", async ({ page }) => {
  const admin = await createAdmin();
  await signInAs(page, admin, "/console/proxies");
  await page.getByRole("tab", { name: "Generate" }).click();
  await page.getByLabel("Quantity").fill("-2");
  await page.getByRole("button", { name: "Generate Proxies" }).click();
  await expect(page.getByText("Quantity must be at least 1")).toBeVisible();
  await expect(page.getByText("Quantity must be a whole number")).toHaveCount(0);

  await page.getByRole("tab", { name: "Import" }).click();
  await page.getByLabel("Proxy list").fill(`${tag()}-one.e2e.test:8080:solo:Secret1`);
  await page.getByRole("button", { name: "Import Proxies" }).click();
  await expect(page.getByTestId("proxy-banner")).toHaveText("Successfully imported 1 proxy");
  await expect(page.getByTestId("import-report").getByText("Successfully imported 1 proxy")).toBeVisible();
});

test("a customer with one proxy reads '1 of 1 proxy'", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Single", balanceCents: 10_000 });
  await buyProxies(customer, { type: "DATACENTER", country: "DE", state: `Saxony ${tag()}`, count: 1 });
  await signInAs(page, customer, "/dashboard/proxies");
  await expect(page.getByTestId("proxy-count")).toHaveText("1 of 1 proxy");
});

test("the plan form names the $10,000.00 maximum; a plan at the maximum stays inside its card on /pricing", async ({ page }) => {
  const admin = await createAdmin();
  await signInAs(page, admin, "/console/pricing");
  const dialog = await openAddPlan(page);
  await submitPlan(dialog, { name: "Too dear", price: "99999999", features: "Gold plated" });
  await expect(dialog.getByText("Price must be at most $10,000.00 per proxy")).toBeVisible();
  await page.keyboard.press("Escape");

  // The dearest plan the server allows, on the public page, at a desktop and a phone width.
  const su = await superuserClient();
  const name = `Dearest ${tag()}`;
  const plan = await su.collection("pricing_plans").create({
    name,
    type: "RESIDENTIAL",
    price_cents: 1_000_000,
    features: ["Premium routing"],
    popular: true,
    active: true,
  });
  try {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 1024, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await expect(async () => {
        await page.goto("/pricing");
        await expect(page.getByText(name)).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      const card = page.locator("article", { hasText: name });
      const price = card.getByText("$10,000.00", { exact: true });
      await expect(price).toBeVisible();
      await expectInside(price, card);
      await expectInside(card.getByText("/ proxy", { exact: true }), card);
    }
  } finally {
    await su.collection("pricing_plans").delete(plan.id);
  }
});
