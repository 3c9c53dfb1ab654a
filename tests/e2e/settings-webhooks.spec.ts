// Settings → Webhooks (issue #18): a customer adds an endpoint, sees its signing secret once
// (the exact warning, a whsec_ secret that is not on the page once closed), finds it listed
// with its events, and deletes it after confirming. The routes' rules, signatures and
// deliveries are in tests/api/webhooks-routes.test.ts.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { createCustomer, signInAs } from "./support/customers.ts";

test.describe.configure({ timeout: 90_000 });

test("a customer adds a webhook endpoint, sees its secret once, turns it off and on, rotates its secret and deletes it", async ({
  page,
}) => {
  const customer = await createCustomer({ firstName: "Wanda" });
  await signInAs(page, customer, "/dashboard/settings");
  await page.getByRole("tab", { name: "Webhooks" }).click();
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(dialog.getByText("Choose at least one event")).toBeVisible();
  await dialog.getByLabel("Endpoint URL").fill("https://hooks.example.com/proxy-shop");
  await dialog.getByRole("checkbox", { name: /purchase\.completed/ }).check();
  // The threshold is asked only with balance.low.
  await expect(dialog.getByLabel("Low-balance threshold in USD")).toHaveCount(0);
  await dialog.getByRole("checkbox", { name: /balance\.low/ }).check();
  await dialog.getByLabel("Low-balance threshold in USD").fill("12.50");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();

  const shown = page.getByRole("dialog", { name: "Endpoint added" });
  await expect(shown.getByText("Copy this signing secret now. You will not be able to see it again.")).toBeVisible();
  const field = shown.getByRole("textbox", { name: "Signing secret" });
  await expect(field).toHaveValue(/^whsec_\S{32}$/);
  const secret = await field.inputValue();
  await expectNoAxeViolations(page, "the new signing secret");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  const card = page.getByTestId("webhook-endpoint").filter({ hasText: "https://hooks.example.com/proxy-shop" });
  await expect(card).toContainText("purchase.completed");
  await expect(card).toContainText("balance.low");
  await expect(card).toContainText("$12.50");
  await expect(card.getByTestId("webhook-status")).toHaveText("Enabled");
  expect(await page.content()).not.toContain(secret);

  // Turned off and on again; a rotation shows a new secret once.
  await card.getByRole("switch", { name: "Disable https://hooks.example.com/proxy-shop" }).click();
  await expect(card.getByTestId("webhook-status")).toHaveText("Disabled");
  await card.getByRole("switch", { name: "Enable https://hooks.example.com/proxy-shop" }).click();
  await expect(card.getByTestId("webhook-status")).toHaveText("Enabled");
  await card.getByRole("button", { name: "Rotate secret" }).click();
  const rotate = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await rotate.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("dialog", { name: "New signing secret" });
  await expect(rotated.getByText("Copy this signing secret now. You will not be able to see it again.")).toBeVisible();
  await expect(rotated.getByRole("textbox", { name: "Signing secret" })).toHaveValue(/^whsec_\S{32}$/);
  await expect(rotated.getByRole("textbox", { name: "Signing secret" })).not.toHaveValue(secret);
  await rotated.getByRole("button", { name: "Done" }).click();
  await card.getByRole("button", { name: "Deliveries" }).click();
  await expect(card.getByText("No deliveries yet")).toBeVisible();

  await card.getByRole("button", { name: "Delete https://hooks.example.com/proxy-shop" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete this endpoint?" });
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(card).toHaveCount(0);
  await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
});
