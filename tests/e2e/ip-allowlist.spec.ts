// Issue #16: the customer's proxy IP allowlist. Settings → Security sets it (the server
// normalises the entries and its message shows for a bad one), it is there after a reload,
// and My Proxies says how many addresses the proxies answer, linking back to it. The rules
// (normalisation, limits, the locked field, the gateway feed) are in tests/api/ip-allowlist.test.ts.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { createCustomer, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

test("a customer sets an IP allowlist in Settings and sees it on My Proxies", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Ivy" });
  await signInAs(page, customer, "/dashboard/settings");
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByRole("heading", { name: "Proxy IP allowlist" })).toBeVisible();
  const field = page.getByRole("textbox", { name: "Allowed addresses and ranges" });
  await expect(field).toHaveValue("");
  await field.fill("10.1.2.3/8\n 2001:DB8::1 ");
  await page.getByRole("button", { name: "Save Allowlist" }).click();
  await expect(page.getByText("IP allowlist saved: your proxies answer only connections from 2 addresses or ranges.")).toBeVisible();
  await expect(field).toHaveValue("10.0.0.0/8\n2001:db8::1");

  // A bad entry: the server's message under the field, and the stored list unchanged.
  await field.fill("10.0.0.0/8\n10.0.0.300");
  await page.getByRole("button", { name: "Save Allowlist" }).click();
  await expect(page.getByText("'10.0.0.300' is not an IP address or CIDR range.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "the IP allowlist with an error");
  const su = await superuserClient();
  expect((await su.collection("users").getOne(customer.id))["ip_allowlist"]).toEqual(["10.0.0.0/8", "2001:db8::1"]);

  // My Proxies says so, and links to the section (a new page load: the list is stored).
  await open(page, "/dashboard/proxies");
  const note = page.getByTestId("ip-allowlist-note");
  await expect(note).toContainText("Your proxies answer only connections from 2 addresses or ranges.");
  await expectNoAxeViolations(page, "My Proxies with the allowlist note");
  await note.getByRole("link", { name: "Manage in Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings#ip-allowlist$/);
  await expect(page.getByRole("tab", { name: "Security", selected: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Allowed addresses and ranges" })).toHaveValue("10.0.0.0/8\n2001:db8::1");
});
