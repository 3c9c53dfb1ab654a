import { expect, test } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";

// A console change of settings or plans must reach every public page without a restart.
test("a settings change and a new plan reach the public pages within 15 seconds", async ({ page }) => {
  const pb = await superuserClient();
  const siteName = await pb.collection("settings").getFirstListItem('key = "site_name"');
  const original = siteName["value"] as string;
  const plan = await pb.collection("pricing_plans").create({
    name: "Freshness Test Plan",
    type: "HTTP",
    price_cents: 1,
    features: ["Appears without a restart"],
    popular: false,
    active: true,
  });
  try {
    await page.goto("/");
    await expect(page.getByRole("link", { name: original }).first()).toBeVisible();

    await pb.collection("settings").update(siteName.id, { value: "Fresh Proxies Co" });
    await expect(async () => {
      await page.goto("/");
      await expect(page.getByRole("link", { name: "Fresh Proxies Co" }).first()).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });

    // The new plan is the cheapest, so it is on the home page and on /pricing.
    await expect(page.getByText("Freshness Test Plan")).toBeVisible();
    await page.goto("/pricing");
    await expect(page.getByText("Freshness Test Plan")).toBeVisible();
    await expect(page).toHaveTitle(/Fresh Proxies Co/);

    await pb.collection("pricing_plans").update(plan.id, { active: false });
    await expect(async () => {
      await page.goto("/pricing");
      await expect(page.getByText("Freshness Test Plan")).toHaveCount(0, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
  } finally {
    await pb.collection("settings").update(siteName.id, { value: original });
    await pb
      .collection("pricing_plans")
      .delete(plan.id)
      .catch(() => {});
  }
});

test("an unknown path redirects to the home page", async ({ page }) => {
  await page.goto("/no-such-page/at/all");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Start Free Trial" }).first()).toBeVisible();
});

test("the welcome credit claim follows welcome_credit_cents, and 0 removes it from every public page", async ({ page }) => {
  const pb = await superuserClient();
  const setting = await pb.collection("settings").getFirstListItem('key = "welcome_credit_cents"');
  const claimPages = ["/", "/pricing", "/docs", "/use-cases"];
  try {
    for (const path of claimPages) {
      await page.goto(path);
      await expect(page.getByText("$5 in free credits").first()).toBeVisible();
    }
    await pb.collection("settings").update(setting.id, { value: "250" });
    await expect(async () => {
      await page.goto("/");
      await expect(page.getByText("New users get $2.50 in free credits")).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });

    await pb.collection("settings").update(setting.id, { value: "0" });
    await expect(async () => {
      await page.goto("/");
      await expect(page.getByText(/in free credits/)).toHaveCount(0, { timeout: 500 });
    }).toPass({ timeout: 15_000 });
    for (const path of claimPages) {
      await page.goto(path);
      await expect(page.getByText(/free credits/), path).toHaveCount(0);
    }
  } finally {
    await pb.collection("settings").update(setting.id, { value: "500" });
  }
});
