// Support hours are one setting (support_hours), shown on every public page that states
// them (issue #15: "24/7" on some pages, "Monday-Friday 9 AM-6 PM EST" on others).
import { expect, test } from "@playwright/test";
import { superuserClient } from "./support/pocketbase.ts";

const HOURS = "Every day 8 AM-8 PM CET";

test("the support_hours setting is what Contact, Docs, Home and Sign in say, and none says 24/7", async ({ page }) => {
  const pb = await superuserClient();
  const row = await pb.collection("settings").getFirstListItem('key = "support_hours"');
  try {
    await pb.collection("settings").update(row.id, { value: HOURS });
    await expect(async () => {
      await page.goto("/contact");
      await expect(page.getByRole("main").getByText(HOURS).first()).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    const main = page.getByRole("main");
    // The Call Us card, the Support Hours card and the FAQ's reply times.
    await expect(main.getByText(HOURS, { exact: true })).toHaveCount(2);
    await expect(main.getByText(`during business hours (${HOURS})`, { exact: false })).toBeAttached();

    for (const path of ["/docs", "/", "/login"]) {
      await page.goto(path);
      await expect(page.getByRole("main").getByText(HOURS, { exact: false }).first()).toBeVisible();
    }
    for (const path of ["/contact", "/docs", "/", "/login"]) {
      await page.goto(path);
      // The page's own words; plan cards carry the features an admin wrote for each plan.
      const words = await page.getByRole("main").evaluate((main) => {
        const copy = main.cloneNode(true) as HTMLElement;
        copy.querySelector("#plans")?.remove();
        return copy.textContent ?? "";
      });
      expect(words, path).not.toContain("24/7");
      expect(words, path).not.toContain("9 AM-6 PM EST");
    }
  } finally {
    await pb.collection("settings").update(row.id, { value: row["value"] });
  }
});
