// Affiliate (spec 2.19, 9) end to end: customer A's code used by B at sign-up; once B is
// verified and buys package-25, A's page shows B. The end-to-end shop pays with the test
// provider, and test payments earn no commission (security review #13, finding 2), so the
// row shows $0.00; the 20% of real (Stripe) payments is checked by the API tests
// (tests/api/payments.test.ts). The code and link copy; the marketing materials.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createCustomer, signInAs, uniqueEmail } from "./support/customers.ts";
import { api } from "./support/api.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });
test.describe.configure({ timeout: 60_000 });

test("a referred customer shows on the affiliate page; a test-provider purchase earns no commission", async ({ page }) => {
  const a = await createCustomer({ firstName: "Avery" });
  const su = await superuserClient();
  const code = a.id.slice(0, 8).toUpperCase();
  const affiliate = await su.collection("affiliates").getFirstListItem(su.filter("user_id = {:id}", { id: a.id }));
  expect(affiliate["code"]).toBe(code);

  // B signs up with A's code; unverified, B does not count yet.
  const bEmail = uniqueEmail("buyer");
  const signup = await api<{ token: string; record: { id: string } }>("/api/shop/signup", {
    body: { first_name: "Blake", last_name: "Buyer", email: bEmail, country: "Germany", ref: code },
  });

  await signInAs(page, a, "/dashboard/affiliate");
  const stat = (name: string) => page.getByRole("group", { name });
  await expect(stat("Total Referrals")).toContainText("0");
  await expect(page.getByText("No referrals yet")).toBeVisible();

  await su.collection("users").update(signup.record.id, { verified: true });
  const checkout = await api<{ payment: { status: string; amount_cents: number } }>("/api/v1/credits/checkout", {
    token: signup.token,
    headers: { "Idempotency-Key": randomUUID() },
    body: { package_id: "package-25" },
  });
  expect(checkout.payment).toMatchObject({ status: "paid", amount_cents: 2400 });
  const commissions = await su.collection("commissions").getFullList({ filter: su.filter("affiliate_id = {:id}", { id: affiliate.id }) });
  expect(commissions).toEqual([]);

  await page.reload();
  await expect(stat("Total Referrals")).toHaveText(/Total Referrals\s*1$/);
  await expect(stat("Total Earnings")).toContainText("$0.00");
  await expect(stat("Pending Earnings")).toContainText("$0.00");
  await expect(stat("This Month")).toContainText("$0.00");

  const row = page.getByTestId("referral-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell")).toHaveText(["Blake B.", `b***@e2e.test`, /\w{3} \d{2}, \d{4}/, "$0.00", "Pending"]);
  await expect(page.getByText("No referrals yet")).toHaveCount(0);

  // Programme terms from the server.
  const details = page.getByTestId("program-details");
  await expect(details).toContainText("20%");
  await expect(details).toContainText("30 days");
  await expect(details).toContainText("$50.00");
  await expect(details).toContainText("Monthly");

  // Code and link, each copied.
  const link = `${E2E.baseUrl}/signup?ref=${code}`;
  await expect(page.getByRole("textbox", { name: "Referral code" })).toHaveValue(code);
  await expect(page.getByRole("textbox", { name: "Referral link" })).toHaveValue(link);
  await page.getByRole("button", { name: "Copy referral code" }).click();
  await expect(page.getByRole("button", { name: "Copy referral code" })).toContainText("Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await page.getByRole("button", { name: "Copy referral link" }).click();
  await expect(page.getByRole("button", { name: "Copy referral link" })).toContainText("Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // Share intents for three sites, in a new tab.
  for (const site of ["X", "Facebook", "LinkedIn"]) {
    const share = page.getByRole("link", { name: new RegExp(`^Share on ${site}`) });
    await expect(share).toHaveAttribute("target", "_blank");
    await expect(share).toHaveAttribute("href", new RegExp(encodeURIComponent(link).replace(/[.?]/g, "\\$&")));
  }

  // Marketing materials (issue #15: no "Coming soon"): a banner linked to the referral link,
  // its HTML and a text to copy.
  await expect(page.getByText(/coming soon/i)).toHaveCount(0);
  await expect(page.getByTestId("affiliate-banner")).toHaveAttribute("href", link);
  const bannerHtml = await page.getByRole("textbox", { name: "Banner HTML" }).inputValue();
  expect(bannerHtml.startsWith(`<a href="${link}" style="`)).toBe(true);
  await page.getByRole("button", { name: "Copy banner html" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(bannerHtml);
  await expect(page.getByRole("textbox", { name: "Text for e-mails and posts" })).toHaveValue(
    new RegExp(`my link: ${link.replace(/[.?]/g, "\\$&")}$`),
  );
  await expect(page.getByRole("heading", { name: "How It Works" })).toBeVisible();
  await expectNoAxeViolations(page);

  // It fits a 360 px screen without scrolling sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
});
