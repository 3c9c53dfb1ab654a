// Issue #18: Settings → Activity, the customer's own log. After signing in through /login the
// tab lists "Signed in" with the address the shop saw, and Export CSV downloads the rows the
// filter matches. The rules (paging, filters, which events are recorded) are in
// tests/api/activity.test.ts.
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { createCustomer, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

test("a customer sees their sign-in in Settings → Activity and exports it as CSV", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Ada" });
  await signInAs(page, customer, "/dashboard/settings");
  // The address the shop recorded for this sign-in (the test browser's own).
  const su = await superuserClient();
  const [signIn] = await su.collection("account_activity").getFullList({ filter: su.filter("user = {:id}", { id: customer.id }) });
  const ip = String(signIn?.["ip"] ?? "");
  expect(ip).not.toBe("");

  await page.getByRole("tab", { name: "Activity" }).click();
  const table = page.getByTestId("activity-table");
  const row = table.getByRole("row").filter({ hasText: "Signed in with a password" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Sign-in");
  await expect(row).toContainText(ip);
  await expectNoAxeViolations(page, "Settings → Activity");

  // Filtered to an event that has not happened: the empty state.
  await page.getByLabel("Event").selectOption({ label: "Purchase" });
  await expect(page.getByText("No activity yet")).toBeVisible();
  await page.getByLabel("Event").selectOption({ label: "Sign-in" });
  await expect(row).toHaveCount(1);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.trim().split(/\r\n/);
  expect(lines[0]).toBe('"Date (UTC)","Event","Details","IP address","Device","API key"');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('"Sign-in","Signed in with a password"');
  expect(lines[1]).toContain(`"${ip}"`);
});
