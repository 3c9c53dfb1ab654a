// The admin's user tools on screen (issue #15): "Make admin" grants rights only once the
// user's e-mail is typed; suspending from the user drawer shows the "Suspended" badge in the
// table, and the suspended customer's sign-in is refused with the server's message. The
// routes' refusals, audit rows and sessions are covered by tests/api/user-admin-tools.test.ts.
import { expect, test, type Page } from "@playwright/test";
import { createAdmin, createCustomer, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

/** Shows only `email` in the list (search by e-mail) and answers its row. */
async function findRow(page: Page, email: string) {
  await page.getByLabel("Search").fill(email);
  await expect(page.getByTestId("user-row")).toHaveCount(1);
  const row = page.getByTestId("user-row").filter({ hasText: email });
  await expect(row).toBeVisible();
  return row;
}

test("an admin makes a user admin with their e-mail typed, and suspends another", async ({ page, browser }) => {
  const admin = await createAdmin();
  const promoted = await createCustomer({ firstName: "Promoted" });
  const suspended = await createCustomer({ firstName: "Suspended" });
  const su = await superuserClient();

  await signInAs(page, admin, "/console/users");
  const row = await findRow(page, promoted.email);
  await row.getByRole("button", { name: `Grant admin privileges to ${promoted.email}` }).click();
  const confirm = page.getByRole("dialog", { name: "Make admin" });
  const grant = confirm.getByRole("button", { name: "Make admin" });
  const typed = confirm.getByLabel(`Type ${promoted.email} to confirm`);
  await typed.fill("someone-else@example.com");
  await expect(grant).toBeDisabled();
  await typed.fill(promoted.email.toUpperCase());
  await grant.click();
  await expect(page.getByText(`${promoted.email} granted admin privileges`)).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(row.getByText("Admin", { exact: true })).toBeVisible();
  expect((await su.collection("users").getOne(promoted.id))["is_admin"]).toBe(true);

  const other = await findRow(page, suspended.email);
  await other.getByRole("button", { name: `Details of ${suspended.email}` }).click();
  const drawer = page.getByRole("dialog", { name: "Suspended Customer" });
  await drawer.getByRole("button", { name: "Suspend", exact: true }).click();
  const suspend = page.getByRole("dialog", { name: "Suspend user" });
  // It says what happens: the gateway refuses a suspended owner's proxies at once (issue #28, 16).
  await expect(suspend).toContainText("Their proxies are refused at once (open connections are cut) and work again when unsuspended");
  await expect(suspend).not.toContainText("proxies and orders stay");
  await suspend.getByRole("button", { name: "Suspend", exact: true }).click();
  await expect(page.getByText(`${suspended.email} suspended: their sessions have ended and their proxies are refused`)).toBeVisible();
  await expect(drawer.getByText("Suspended", { exact: true })).toBeVisible();
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(other.getByText("Suspended", { exact: true })).toBeVisible();
  expect((await su.collection("users").getOne(suspended.id))["suspended"]).toBe(true);

  // The suspended customer is told why they cannot sign in.
  const context = await browser.newContext();
  const customerPage = await context.newPage();
  await open(customerPage, "/login");
  await customerPage.getByLabel("Email address").fill(suspended.email);
  await customerPage.getByLabel("Password", { exact: true }).fill(suspended.password);
  await customerPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(customerPage.getByText("This account is suspended. Contact support.")).toBeVisible();
  await context.close();
});
