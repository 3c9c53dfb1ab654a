// Issue #15 on /dashboard/affiliate: the affiliate sets the payout method admins see when
// they pay (its form loads on demand, saving says so and the text shows as text), and the
// marketing materials are real: a banner linked to the referral link and its HTML to copy,
// no "Coming soon". The admin's side is in console-affiliates.spec.ts. Also issue #15's
// copy fixes: the pricing FAQ (no prorated plan changes) and the docs' sign-up example.
import { expect, test } from "@playwright/test";
import { createCustomer, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

test("an affiliate sets their payout method and copies a banner with their link", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Payton" });
  await signInAs(page, customer, "/dashboard/affiliate");
  const link = `${new URL(page.url()).origin}/signup?ref=${customer.id.slice(0, 8).toUpperCase()}`;

  const method = page.getByTestId("payout-method");
  await expect(method).toContainText("Not set yet");
  await page.getByRole("button", { name: "Add payout method" }).click();
  const field = page.getByLabel("Payout method");
  await field.fill("x".repeat(10));
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(method).toContainText("Not set yet");

  await page.getByRole("button", { name: "Add payout method" }).click();
  await field.fill("PayPal: <b>payton@example.com</b>\nor IBAN DE89 3704");
  await page.getByRole("button", { name: "Save payout method" }).click();
  await expect(page.getByText("Payout method saved.")).toBeVisible();
  await expect(method).toHaveText("PayPal: <b>payton@example.com</b>\nor IBAN DE89 3704");
  await expect(method.locator("b")).toHaveCount(0);

  const su = await superuserClient();
  const stored = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: customer.id }));
  expect(stored["payout_method"]).toBe("PayPal: <b>payton@example.com</b>\nor IBAN DE89 3704");
  await page.reload();
  await expect(method).toContainText("payton@example.com");
  await expect(page.getByRole("button", { name: "Change payout method" })).toBeVisible();

  // Marketing materials: the banner links to the referral link; nothing "Coming soon" (copying: affiliate.spec.ts).
  await expect(page.getByTestId("affiliate-banner")).toHaveAttribute("href", link);
  await expect(page.getByRole("textbox", { name: "Banner HTML" })).toHaveValue(new RegExp(`^<a href="${link.replace(/[.?]/g, "\\$&")}"`));
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
});

test("the pricing page says how buying works in a pay-per-proxy shop, with no prorated plan changes", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByText("prorated", { exact: false })).toHaveCount(0);
  await page.getByText("Do I need a plan or a subscription?").click();
  await expect(
    page.getByText(
      "No. You pay per proxy from your credit balance: each proxy is bought for 30 days at the price of its type. Renew the proxies you want to keep, one by one or with auto-renew; the others simply expire. There are no plans to upgrade or downgrade and no partial-month charges.",
    ),
  ).toBeVisible();
});

test("the docs' sign-up example sends the sign-up form's fields, and no password", async ({ page }) => {
  await page.goto("/docs");
  const step = page.locator("#create-account");
  await expect(step).toContainText('"first_name": "Ada", "last_name": "Lovelace", "email": "you@example.com", "country": "United Kingdom"');
  await expect(step).not.toContainText('password":');
  await expect(step).toContainText("Sign up with your name, e-mail address and country.");
});
