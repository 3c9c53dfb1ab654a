// Admin invitations end to end: /console/register is closed while registration is off; an
// admin opens it in System Settings and creates a link; a new browser registers with it,
// lands in the console as an administrator, and the link is spent.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { createAdmin, open, signInAs, uniqueEmail } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

// Whole journeys with axe sweeps: slow on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

async function setRegistration(value: "true" | "false"): Promise<void> {
  const su = await superuserClient();
  const row = await su.collection("settings").getFirstListItem('key = "admin_registration_enabled"');
  if (row["value"] !== value) await su.collection("settings").update(row.id, { value });
}

test("while registration is off, /console/register says it is closed", async ({ page }) => {
  await setRegistration("false");
  await expect(async () => {
    await page.goto("/console/register?token=abc");
    await expect(page.getByRole("heading", { name: "Admin registration is closed" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalScroll(page);
});

test("an admin opens registration and invites; the invitee registers and lands in the console as an admin", async ({ page, browser }) => {
  const su = await superuserClient();
  const inviteeEmail = uniqueEmail("invitee");
  try {
    await setRegistration("false");
    const admin = await createAdmin("Ines");
    await signInAs(page, admin, "/console/settings");
    await page.getByRole("switch", { name: "Admin registration" }).check();
    await expect(page.getByText("Save Settings to open admin registration")).toBeVisible();
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Settings updated successfully")).toBeVisible();

    await expect(page.getByRole("heading", { name: "Invite an administrator" })).toBeVisible();
    await page.getByLabel("Email (optional)", { exact: true }).fill(inviteeEmail);
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const linkField = page.getByRole("textbox", { name: "Invitation link" });
    await expect(linkField).toHaveValue(/\/console\/register\?token=[A-Za-z0-9]{43}$/);
    const link = await linkField.inputValue();
    const pending = page.getByRole("list").filter({ hasText: inviteeEmail });
    await expect(pending.getByRole("button", { name: /^Revoke/ })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalScroll(page);

    // The invitee, in a browser of their own.
    const context = await browser.newContext();
    const invitee = await context.newPage();
    await open(invitee, link);
    await expect(invitee.getByRole("heading", { name: "Create Your Admin Account" })).toBeVisible();
    await expect(invitee.getByLabel("Email address")).toHaveValue(inviteeEmail);
    await expect(invitee.getByLabel("Email address")).toHaveAttribute("readonly", "");
    await expectNoAxeViolations(invitee);
    await invitee.setViewportSize({ width: 360, height: 800 });
    await expectNoHorizontalScroll(invitee);

    await invitee.getByLabel("First name").fill("Rowan");
    await invitee.getByLabel("Last name").fill("Invited");
    await invitee.getByLabel("Password", { exact: true }).fill("invited#admin1");
    await invitee.getByLabel("Confirm password").fill("invited#admin1");
    await invitee.getByRole("button", { name: "Create Admin Account" }).click();
    await expect(invitee.getByText("Password must contain an uppercase letter")).toBeVisible();

    await invitee.getByLabel("Password", { exact: true }).fill("Invited#Admin1");
    await invitee.getByLabel("Confirm password").fill("Invited#Admin1");
    const toConsole = invitee.waitForResponse((r) => new URL(r.url()).pathname === "/console");
    await invitee.getByRole("button", { name: "Create Admin Account" }).click();
    // The server-side guard let the new session into the console: no bounce to /login or /dashboard.
    const response = await toConsole;
    expect(response.headers()["location"] ?? "").not.toMatch(/\/(login|dashboard)/);
    await invitee.waitForURL((url) => !url.pathname.startsWith("/console/register"));

    const user = await su.collection("users").getFirstListItem(su.filter("email = {:email}", { email: inviteeEmail }));
    expect(user).toMatchObject({ is_admin: true, verified: true, first_name: "Rowan", last_name: "Invited" });

    await open(invitee, "/console/settings");
    await expect(invitee.getByRole("heading", { name: "System Settings", level: 1 })).toBeVisible();
    await expect(invitee.getByText("Access Denied")).toHaveCount(0);

    // The link is spent.
    const other = await (await browser.newContext()).newPage();
    await open(other, link);
    await expect(other.getByText("This invitation link has already been used.")).toBeVisible();
    await context.close();

    // The admin's pending list no longer shows it.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Invite an administrator" })).toBeVisible();
    await expect(page.getByText(inviteeEmail)).toHaveCount(0);
  } finally {
    await setRegistration("false");
  }
});
