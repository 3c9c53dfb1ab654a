// Gateway tokens in System Settings (issue #16): an admin makes one for a gateway on another
// machine, sees it once with the command to run, finds it listed, and revokes it; the token
// opens the shop's gateway API until then, and is refused from the moment it is revoked.
// The list says whether each token's gateway is in contact with the shop.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./support/checks.ts";
import { createAdmin, signInAs } from "./support/customers.ts";
import { E2E } from "./support/env.ts";

test.describe.configure({ timeout: 90_000 });

const snapshotStatus = async (token: string) =>
  (await fetch(`${E2E.baseUrl}/api/gateway/snapshot`, { headers: { Authorization: `Bearer ${token}` } })).status;

test("an admin makes a gateway token, copies it and the command once, and revokes it", async ({ page }) => {
  const name = `e2e-gw-${Date.now().toString(36)}`;
  await signInAs(page, await createAdmin("Gale"), "/console/settings");
  await expect(page.getByRole("heading", { name: "Proxy gateway" })).toBeVisible();
  const section = page.getByRole("region", { name: /^Gateway tokens/ });
  await expect(section.getByRole("heading", { name: /^Gateway tokens \(\d+\)$/ })).toBeVisible();

  await section.getByRole("button", { name: "New gateway token" }).click();
  const dialog = page.getByRole("dialog", { name: "New gateway token" });
  await dialog.getByRole("button", { name: "Create token" }).click();
  await expect(dialog.getByText("Name the gateway (1-100 characters), e.g. eu-1")).toBeVisible();
  await dialog.getByLabel("Gateway name").fill(name);
  await dialog.getByRole("button", { name: "Create token" }).click();

  // Shown once: the token, the command with the shop's address, and the warning.
  const shown = page.getByRole("dialog", { name: `Gateway token "${name}"` });
  await expect(shown.getByText("Copy it now: it cannot be shown again.")).toBeVisible();
  const tokenField = shown.getByRole("textbox", { name: "Token" });
  await expect(tokenField).toHaveValue(/^gwt_[A-Za-z0-9]{40}$/);
  const token = await tokenField.inputValue();
  await expect(shown.getByText(`pocketbase gateway --pb-url ${E2E.baseUrl} --token-file gateway.token`)).toBeVisible();
  await expect(shown.getByRole("button", { name: "Copy the gateway token" })).toBeVisible();
  await expect(shown.getByRole("button", { name: "Copy the gateway command" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await snapshotStatus(token)).toBe(200);
  // Submitting the dialog did not submit the settings form behind it.
  await expect(page.getByText("Settings updated successfully")).toHaveCount(0);
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  // Listed by name, never with the token; the snapshot call above was its gateway's
  // contact with the shop (#26 finding 4: the list says whether a gateway is in contact).
  const row = section.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("Created");
  await page.reload();
  await expect(row.getByText("In contact")).toBeVisible();
  await expect(row).toContainText("Last used");
  await expect(page.getByText(token)).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // Revoked after a confirmation: gone from the list, and the gateway API refuses it.
  await row.getByRole("button", { name: `Revoke the gateway token ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke the gateway token "${name}"?` });
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  expect(await snapshotStatus(token)).toBe(401);
});
