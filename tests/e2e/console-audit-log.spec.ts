// A readable audit log (issue #15): after an admin credits a customer, the Audit Logs page
// says so in a sentence naming the customer's e-mail, and "Show details" reveals the JSON.
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createAdmin, createCustomer, signInAs, userClient } from "./support/customers.ts";

test("the audit log says what an admin did to whom, with the JSON on demand", async ({ page }) => {
  const admin = await createAdmin("Jane");
  const adminPb = await userClient(admin);
  const target = await createCustomer();
  const description = `Goodwill ${randomUUID().slice(0, 8)}`;
  await adminPb.send(`/api/admin/users/${target.id}/balance`, {
    method: "POST",
    headers: { "Idempotency-Key": randomUUID() },
    body: { transaction_type: "CREDIT", amount_cents: 2500, description },
  });

  await signInAs(page, admin, "/console/logs");
  await page.getByLabel("Search", { exact: true }).fill(description);
  const entry = page.getByTestId("audit-entry");
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId("audit-sentence")).toHaveText(`Admin Jane Admin credited $25.00 to ${target.email}: ${description}`);
  await expect(entry.getByTestId("audit-target-name")).toContainText(target.email);

  const details = entry.getByTestId("audit-details");
  await expect(details).toBeHidden();
  await entry.getByText("Show details").click();
  await expect(details).toBeVisible();
  await expect(details).toContainText(`"description": "${description}"`);
  await expect(details).toContainText(`"amount_cents": 2500`);
});
