// The console's pricing plans (Pricing Management): the Add Plan dialog, opened and sent.
import type { Locator, Page } from "@playwright/test";

/** Opens Add Plan on /console/pricing and answers its dialog. */
export async function openAddPlan(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Add Plan" }).click();
  return page.getByRole("dialog", { name: "Add Pricing Plan" });
}

/** Fills in the plan dialog's name, price (USD, as typed) and features, and sends it. */
export async function submitPlan(dialog: Locator, plan: { name: string; price: string; features: string }): Promise<void> {
  await dialog.getByLabel("Name").fill(plan.name);
  await dialog.getByLabel("Price per proxy (USD)").fill(plan.price);
  await dialog.getByLabel("Features (one per line)").fill(plan.features);
  await dialog.getByRole("button", { name: "Create Plan" }).click();
}
