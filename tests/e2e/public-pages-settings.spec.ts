// Public pages follow what PocketBase holds: the active pricing plans on home and pricing
// (and the notice when there is none), and contact data and the primary colour from settings.
import { expect, test } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";

test.describe("plans and settings from PocketBase", () => {
  test("home shows the 3 cheapest active plans and pricing shows them all, popular ones with Most Popular", async ({ page }) => {
    const pb = await superuserClient();
    const made: string[] = [];
    const plan = (name: string, price_cents: number, popular: boolean) =>
      pb
        .collection("pricing_plans")
        .create({ name, type: "DATACENTER", price_cents, features: [`${name} feature`], popular, active: true })
        .then((r) => made.push(r.id));
    try {
      // Cheaper than anything a seed would carry, so these four are the cheapest.
      await plan("E2E Plan A", 1, false);
      await plan("E2E Plan B", 2, true);
      await plan("E2E Plan C", 3, false);
      await plan("E2E Plan D", 4, false);

      await expect(async () => {
        await page.goto("/pricing");
        await expect(page.getByText("E2E Plan D", { exact: true })).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "E2E Plan B" }) });
      await expect(card.getByText("Most Popular")).toBeVisible();
      await expect(card.getByText("$0.02")).toBeVisible();
      await expect(card.getByText("E2E Plan B feature")).toBeVisible();
      await expect(card.getByRole("link", { name: /Get Started/ })).toHaveAttribute("href", "/signup");
      const plainCard = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "E2E Plan A" }) });
      await expect(plainCard.getByText("Most Popular")).toHaveCount(0);

      await page.goto("/");
      const plans = page.locator("#plans");
      for (const name of ["E2E Plan A", "E2E Plan B", "E2E Plan C"]) {
        await expect(plans.getByRole("heading", { name, exact: true })).toBeVisible();
      }
      await expect(plans.getByText("E2E Plan D")).toHaveCount(0);
      await expect(plans.getByRole("article")).toHaveCount(3);
      await expect(plans.getByText("Most Popular")).toBeVisible();
    } finally {
      for (const id of made)
        await pb
          .collection("pricing_plans")
          .delete(id)
          .catch(() => {});
    }
  });

  test("with no active plan, pricing shows Pricing Plans Coming Soon with a link to /contact", async ({ page }) => {
    const pb = await superuserClient();
    const active = await pb.collection("pricing_plans").getFullList({ filter: "active = true" });
    try {
      for (const plan of active) await pb.collection("pricing_plans").update(plan.id, { active: false });
      await expect(async () => {
        await page.goto("/pricing");
        await expect(page.getByRole("heading", { name: "Pricing Plans Coming Soon" })).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      const card = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Pricing Plans Coming Soon" }) });
      await expect(card.getByRole("link")).toHaveAttribute("href", "/contact");
    } finally {
      for (const plan of active) await pb.collection("pricing_plans").update(plan.id, { active: true });
    }
  });

  test("contact data and the primary colour changed in settings reach the public pages", async ({ page }) => {
    const pb = await superuserClient();
    const rows = await pb.collection("settings").getFullList({ filter: 'key = "contact_phone" || key = "primary_color"' });
    const phone = rows.find((r) => r["key"] === "contact_phone")!;
    const color = rows.find((r) => r["key"] === "primary_color")!;
    try {
      await pb.collection("settings").update(phone.id, { value: "+1 (555) 777-1234" });
      await pb.collection("settings").update(color.id, { value: "#7C3AED" });
      await expect(async () => {
        await page.goto("/");
        await expect(page.getByRole("contentinfo").getByText("+1 (555) 777-1234")).toBeVisible({ timeout: 500 });
      }).toPass({ timeout: 15_000 });
      await expect(page.locator("html")).toHaveAttribute("style", /--brand:#7C3AED/);
      await page.goto("/contact");
      await expect(page.locator("main").getByRole("link", { name: "+1 (555) 777-1234" })).toHaveAttribute("href", "tel:+15557771234");
    } finally {
      await pb.collection("settings").update(phone.id, { value: phone["value"] });
      await pb.collection("settings").update(color.id, { value: color["value"] });
    }
  });
});
