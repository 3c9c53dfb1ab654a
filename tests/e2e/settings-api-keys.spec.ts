// Settings → API Access (issue #18): a customer makes an API key, sees it once, finds it
// listed by its prefix only, and the key answers on the developer API until it is revoked,
// when the API refuses it with problem details saying so. A key with purchase gets a spend
// cap, listed against what it spent, on a phone's cards. The routes' rules (scopes, caps,
// allowlists, expiry) are in the API tests.
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { createCustomer, signInAs } from "./support/customers.ts";
import { E2E } from "./support/env.ts";

test.describe.configure({ timeout: 90_000 });

/** GET /api/v1/account with the key, from this test (not the browser). */
const accountWith = async (key: string) => {
  const res = await fetch(`${E2E.baseUrl}/api/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function openApiAccess(page: Page) {
  await page.getByRole("tab", { name: "API Access" }).click();
  await expect(page.getByRole("heading", { name: "API Access" })).toBeVisible();
}

test("a customer creates an API key, sees it once, uses it and revokes it", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Kai" });
  await signInAs(page, customer, "/dashboard/settings");
  await openApiAccess(page);
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await expect(page.getByTestId("api-base-url")).toHaveText(`${E2E.baseUrl}/api/v1`);
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog.getByRole("checkbox", { name: /^Read/ })).toBeChecked();
  // The spend cap is always shown (issue #28), and taken only with the purchase scope.
  await expect(dialog.getByLabel("Monthly spend cap in USD (optional)")).toBeDisabled();
  await dialog.getByRole("button", { name: "Create API key" }).click();
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await dialog.getByLabel("Name", { exact: true }).fill("Inventory sync");
  await dialog.getByRole("button", { name: "Create API key" }).click();

  // Shown once, with the warning.
  const shown = page.getByRole("dialog", { name: "API key “Inventory sync”" });
  await expect(shown.getByText("Copy this key now. You will not be able to see it again.")).toBeVisible();
  const field = shown.getByRole("textbox", { name: "Your new API key" });
  await expect(field).toHaveValue(/^psk_live_\S+$/);
  const key = await field.inputValue();
  await expectNoAxeViolations(page, "the new API key");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  // Listed by its prefix, never the key.
  const row = page.getByTestId("api-key-row").filter({ hasText: "Inventory sync" });
  await expect(row).toContainText(`${key.slice(0, 13)}…`);
  await expect(row).toContainText("read");
  await expect(row).toContainText("No cap");
  await expect(row.getByTestId("api-key-status")).toHaveText("Active");
  expect(await page.content()).not.toContain(key);

  // The key works on the API.
  const ok = await accountWith(key);
  expect(ok.status).toBe(200);
  expect(ok.body["email"]).toBe(customer.email);

  // Revoked after a confirmation: the row says so (and, reloaded, when and where the key was
  // last used), and the API refuses the key.
  await row.getByRole("button", { name: "Revoke API key Inventory sync" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke API key “Inventory sync”?" });
  await expect(confirm).toContainText("Programs using it stop working at once.");
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByTestId("api-key-status")).toHaveText("Revoked");
  await expect(row.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
  await expect(row).toContainText(/\d{2}:\d{2} from 127\.0\.0\.1/);
  const refused = await accountWith(key);
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({ status: 401, title: expect.any(String) });
  expect(refused.body["detail"]).toMatch(/revoked/);
});

test("on a phone, a purchase key with a spend cap and an allowlist is listed as a card", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = await createCustomer({ firstName: "Pia" });
  await signInAs(page, customer, "/dashboard/settings");
  await openApiAccess(page);
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name", { exact: true }).fill("Buyer bot");
  await dialog.getByRole("checkbox", { name: /^Purchase/ }).check();
  await dialog.getByLabel("IP allowlist (optional)").fill("203.0.113.7\n10.0.0.300");
  await dialog.getByLabel("Monthly spend cap in USD (optional)").fill("50");
  await dialog.getByRole("button", { name: "Create API key" }).click();
  await expect(dialog.getByText("'10.0.0.300' is not an IP address or CIDR range.")).toBeVisible();
  await dialog.getByLabel("IP allowlist (optional)").fill("203.0.113.7\n198.51.100.0/24");
  await dialog.getByRole("button", { name: "Create API key" }).click();
  const shown = page.getByRole("dialog", { name: "API key “Buyer bot”" });
  await expect(shown.getByRole("textbox", { name: "Your new API key" })).toHaveValue(/^psk_live_/);
  await shown.getByRole("button", { name: "Done" }).click();

  const card = page.getByTestId("api-key-card").filter({ hasText: "Buyer bot" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("$0.00 of $50.00");
  await expect(card).toContainText("purchase");
  await expect(card).toContainText("Never");
  await expect(card.getByTestId("api-key-status")).toHaveText("Active");
  await expect(page.getByTestId("api-key-row")).toBeHidden();

  // The cap changes later (issue #28); emptied, the key has none and its spend still shows.
  await card.getByRole("button", { name: "Change spend cap of API key Buyer bot" }).click();
  const capDialog = page.getByRole("dialog", { name: "Spend cap of “Buyer bot”" });
  const cap = capDialog.getByLabel("Monthly spend cap in USD (optional)");
  await expect(cap).toHaveValue("50.00");
  await cap.fill("75");
  await capDialog.getByRole("button", { name: "Save cap" }).click();
  await expect(capDialog).toBeHidden();
  await expect(card).toContainText("$0.00 of $75.00");
  await card.getByRole("button", { name: "Change spend cap of API key Buyer bot" }).click();
  await capDialog.getByLabel("Monthly spend cap in USD (optional)").fill("");
  await capDialog.getByRole("button", { name: "Save cap" }).click();
  await expect(card).toContainText("$0.00 · No cap");
});
