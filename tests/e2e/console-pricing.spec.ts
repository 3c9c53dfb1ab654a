// Console Pricing Management (admin spec "Pricing Management"): the form's rules, create
// (the modal closes 2 seconds after the success message), edit, delete with its
// confirmation, and a new active plan reaching the public /pricing page; axe and 360 px.
import { expect, test } from "@playwright/test";
import { createAdmin, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";
import { openAddPlan, submitPlan } from "./support/plans.ts";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";

test.describe.configure({ timeout: 90_000 });

test("create, edit and delete a plan; the new active plan shows on /pricing", async ({ page }) => {
  const admin = await createAdmin();
  const su = await superuserClient();
  const name = `Console Plan ${Date.now().toString(36)}`;
  await signInAs(page, admin, "/console/pricing");
  await expect(page.getByRole("heading", { name: "Pricing Management", level: 1 })).toBeVisible();
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  await expectNoAxeViolations(page);

  // The form's rules, with the defaults popular off and active on.
  const dialog = await openAddPlan(page);
  await expect(dialog.getByLabel("Popular")).not.toBeChecked();
  await expect(dialog.getByLabel(/^Active/)).toBeChecked();
  await submitPlan(dialog, { name: "   ", price: "0", features: "\n  \n" });
  await expect(dialog.getByText("Name is required")).toBeVisible();
  await expect(dialog.getByText("Price must be greater than 0")).toBeVisible();
  await expect(dialog.getByText("Features are required")).toBeVisible();
  await expectNoAxeViolations(page);

  // Create: $3.75 is saved as 375 cents, blank feature lines dropped.
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Type").selectOption("SOCKS5");
  await dialog.getByLabel("Price per proxy (USD)").fill("3.75");
  await dialog.getByLabel("Features (one per line)").fill("Private endpoint\n\n  UDP support  \n");
  const clickedAt = Date.now();
  await dialog.getByRole("button", { name: "Create Plan" }).click();
  await expect(dialog.getByText("Pricing plan created successfully")).toBeVisible();
  // The modal stays 2 seconds with the message, then closes.
  await expect(dialog.getByLabel("Name")).toBeHidden({ timeout: 6_000 });
  expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(2_000);
  const stored = await su.collection("pricing_plans").getFirstListItem(su.filter("name = {:name}", { name }));
  expect(stored).toMatchObject({
    type: "SOCKS5",
    price_cents: 375,
    features: ["Private endpoint", "UDP support"],
    popular: false,
    active: true,
  });
  const card = page.getByTestId("plan-card").filter({ hasText: name });
  await expect(card).toContainText("$3.75");
  await expect(card).toContainText("SOCKS5");
  await expect(card).toContainText("Active");
  const audit = await su.collection("audit_logs").getFullList({ filter: su.filter("target_id = {:id}", { id: stored.id }) });
  expect(audit.map((a) => [a["action"], a["admin_id"]])).toEqual([["pricing_plans.create", expect.any(String)]]);

  try {
    // The public pricing page shows it within 15 seconds (no restart).
    const publicPage = await page.context().newPage();
    await expect(async () => {
      await publicPage.goto("/pricing");
      await expect(publicPage.getByText(name)).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await publicPage.close();

    // Edit: popular, a new price.
    await card.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit Pricing Plan" });
    await expect(edit.getByLabel("Price per proxy (USD)")).toHaveValue("3.75");
    await expect(edit.getByLabel("Features (one per line)")).toHaveValue("Private endpoint\nUDP support");
    await edit.getByLabel("Price per proxy (USD)").fill("4.2");
    await edit.getByLabel("Popular").check();
    await edit.getByRole("button", { name: "Update Plan" }).click();
    await expect(edit.getByText("Pricing plan updated successfully")).toBeVisible();
    await expect(edit.getByLabel("Name")).toBeHidden({ timeout: 6_000 });
    await expect(card).toContainText("$4.20");
    await expect(card).toContainText("Popular");
    expect(await su.collection("pricing_plans").getOne(stored.id)).toMatchObject({ price_cents: 420, popular: true });

    // Delete: asks first; Cancel keeps it.
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete pricing plan" });
    await expect(confirm.getByText("Are you sure you want to delete this pricing plan?")).toBeVisible();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(card).toHaveCount(1);
    await card.getByRole("button", { name: `Delete ${name}` }).click();
    await page.getByRole("dialog", { name: "Delete pricing plan" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Pricing plan deleted successfully")).toBeVisible();
    await expect(card).toHaveCount(0);
    expect(await su.collection("pricing_plans").getFullList({ filter: su.filter("id = {:id}", { id: stored.id }) })).toHaveLength(0);
  } finally {
    await su
      .collection("pricing_plans")
      .delete(stored.id)
      .catch(() => {});
  }
});

test("the server's message shows when a save is refused (demo mode), and the page fits 360 px", async ({ page }) => {
  const admin = await createAdmin();
  const su = await superuserClient();
  const demo = await su.collection("settings").getFirstListItem('key = "demo_mode"');
  await signInAs(page, admin, "/console/pricing");
  await su.collection("settings").update(demo.id, { value: "true" });
  try {
    const dialog = await openAddPlan(page);
    await submitPlan(dialog, { name: "Refused Plan", price: "1", features: "One" });
    await expect(dialog.getByRole("alert")).toContainText("Demo mode is on");
    await expect(dialog.getByLabel("Name")).toBeVisible();
    expect(await su.collection("pricing_plans").getFullList({ filter: 'name = "Refused Plan"' })).toHaveLength(0);
  } finally {
    await su.collection("settings").update(demo.id, { value: "false" });
  }
  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
});
