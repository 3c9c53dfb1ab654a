// System Settings (/console/settings): an admin edits the site's branding, sees it in the
// live preview while typing, saves, and the public pages follow; the spec's validation
// messages; demo mode makes the page read-only.
import { expect, test, type Page } from "@playwright/test";
import type PocketBase from "pocketbase";
import { expectNoAxeViolations, expectNoHorizontalScroll } from "./support/checks.ts";
import { createAdmin, open, signInAs } from "./support/customers.ts";
import { superuserClient } from "./support/pocketbase.ts";

// Whole journeys with axe sweeps: slow on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

const KEYS = [
  "site_name",
  "site_description",
  "primary_color",
  "contact_email",
  "contact_phone",
  "default_support_name",
  "demo_mode",
  "welcome_credit_spendable_cents",
  "welcome_credits_per_address_per_day",
  "gateway_bind_addresses",
];

/** The stored values of the keys this spec changes, to put back afterwards. */
async function snapshot(su: PocketBase): Promise<Map<string, { id: string; value: string }>> {
  const rows = await su.collection("settings").getFullList({ fields: "id,key,value" });
  return new Map(
    rows.filter((r) => KEYS.includes(r["key"] as string)).map((r) => [r["key"] as string, { id: r.id, value: r["value"] as string }]),
  );
}

async function restore(su: PocketBase, saved: Map<string, { id: string; value: string }>): Promise<void> {
  const now = await snapshot(su);
  for (const [key, { id, value }] of saved) {
    if (now.get(key)?.value !== value) await su.collection("settings").update(id, { value });
  }
}

async function openSettings(page: Page): Promise<void> {
  const admin = await createAdmin("Sasha");
  await signInAs(page, admin, "/console/settings");
  await expect(page.getByRole("heading", { name: "System Settings", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Site name")).not.toHaveValue("");
}

test("an admin renames the site: the preview follows the typing and the home page shows it within 15 seconds", async ({ page }) => {
  const su = await superuserClient();
  const saved = await snapshot(su);
  const name = `Settings E2E ${Date.now().toString(36)}`;
  try {
    await openSettings(page);
    for (const section of ["Site Configuration", "Contact Information", "Support Settings", "Proxy gateway", "Security Settings"]) {
      await expect(page.getByRole("heading", { name: section })).toBeVisible();
    }
    await expect(page.getByLabel("Default support name")).toHaveValue(saved.get("default_support_name")?.value ?? "");
    await expect(page.getByRole("switch", { name: "Admin registration" })).toBeVisible();
    await expect(page.getByText("/console/register", { exact: true })).toBeVisible();

    // The preview follows every keystroke, before anything is saved.
    const preview = page.getByTestId("settings-preview");
    await page.getByLabel("Site name").fill(name);
    await expect(preview.getByTestId("preview-site-name")).toHaveText(name);
    await page.getByLabel("Site description").fill("Proxies reviewed by the end-to-end run.");
    await expect(preview.getByTestId("preview-description")).toHaveText("Proxies reviewed by the end-to-end run.");
    await page.getByLabel("Primary color", { exact: true }).fill("#0f766e");
    await expect(page.getByTestId("preview-color")).toHaveText("#0F766E");
    expect(await su.collection("settings").getFirstListItem('key = "site_name"')).toMatchObject({ value: saved.get("site_name")?.value });

    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Settings updated successfully")).toBeVisible();
    expect(await su.collection("settings").getFirstListItem('key = "site_name"')).toMatchObject({ value: name });
    expect(await su.collection("settings").getFirstListItem('key = "primary_color"')).toMatchObject({ value: "#0F766E" });
    const [audit] = (await su.collection("audit_logs").getList(1, 1, { filter: 'action = "settings.update"', sort: "-created" })).items;
    expect(audit?.["details"]).toMatchObject({ changes: { site_name: { to: name }, primary_color: { to: "#0F766E" } } });

    await expect(async () => {
      await page.goto("/");
      await expect(page.getByRole("link", { name }).first()).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });

    await page.setViewportSize({ width: 360, height: 800 });
    await open(page, "/console/settings");
    await expect(page.getByLabel("Site name")).toHaveValue(name);
    await expectNoHorizontalScroll(page);
    await expectNoAxeViolations(page);
  } finally {
    await restore(su, saved);
  }
});

test("the spec's validation messages show in red under each field and nothing is saved", async ({ page }) => {
  const su = await superuserClient();
  const saved = await snapshot(su);
  await openSettings(page);
  await page.getByLabel("Site name").fill("");
  await page.getByLabel("Site description").fill("   ");
  await page.getByLabel("Primary color", { exact: true }).fill("");
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByLabel("Phone number").fill("");
  await page.getByLabel("Default support name").fill("");
  await page.getByRole("button", { name: "Save Settings" }).click();
  for (const [label, message] of [
    ["Site name", "Site name is required"],
    ["Site description", "Site description is required"],
    ["Primary color", "Primary color is required"],
    ["Email", "Valid email is required"],
    ["Phone number", "Phone number is required"],
    ["Default support name", "Support name is required"],
  ] as const) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    const error = page.getByText(message, { exact: true });
    await expect(error).toBeVisible();
    await expect(error).toHaveClass(/text-red-600/);
  }
  await page.getByLabel("Primary color", { exact: true }).fill("teal");
  await expect(page.getByText("Primary color must be a hex color like #3B82F6")).toBeVisible();
  await expect(page.getByText("Settings updated successfully")).toHaveCount(0);
  expect(await snapshot(su)).toEqual(saved);
  await expectNoAxeViolations(page);
});

test("an admin limits the welcome credit (security review, finding 10) and sets the gateway's bind addresses (issue #16)", async ({
  page,
}) => {
  const su = await superuserClient();
  const saved = await snapshot(su);
  try {
    await openSettings(page);
    const perAddress = page.getByLabel("Welcome credits per sign-up address a day");
    await expect(perAddress).toHaveValue("3");
    await perAddress.fill("-2");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(
      page.getByText("Welcome credits per sign-up address a day must be a whole number from 0 (no limit) to 1000"),
    ).toBeVisible();
    await expect(perAddress).toHaveAttribute("aria-invalid", "true");

    // The gateway's bind addresses: what each one is for is said under the field; an entry
    // that is not an IP address is named.
    const bind = page.getByLabel("Bind addresses (optional)");
    await expect(page.getByText("Generate spreads new proxies over them")).toBeVisible();
    await expect(page.getByText("Only matters when the gateway listens beyond loopback")).toBeVisible();
    await bind.fill("127.0.0.1\ngateway.example.com");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Gateway bind addresses: gateway.example.com is not an IP address", { exact: false })).toBeVisible();
    await expect(bind).toHaveAttribute("aria-invalid", "true");

    await bind.fill("127.0.0.1,\n127.0.0.1");
    await perAddress.fill("5");
    await page.getByLabel("Welcome credit spendable before a first purchase (USD)").fill("2.50");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expect(page.getByText("Settings updated successfully")).toBeVisible();
    const stored = await snapshot(su);
    expect(stored.get("welcome_credits_per_address_per_day")?.value).toBe("5");
    expect(stored.get("welcome_credit_spendable_cents")?.value).toBe("250");
    expect(stored.get("gateway_bind_addresses")?.value).toBe("127.0.0.1");
    await expect(bind).toHaveValue("127.0.0.1");
  } finally {
    await restore(su, saved);
  }
});

test("in demo mode the page is read-only and says how a superuser switches it off", async ({ page }) => {
  const su = await superuserClient();
  const saved = await snapshot(su);
  const demo = saved.get("demo_mode");
  if (!demo) throw new Error("no demo_mode row");
  try {
    await su.collection("settings").update(demo.id, { value: "true" });
    await openSettings(page);
    await expect(page.getByRole("switch", { name: "Demo mode" })).toBeChecked();
    await expect(page.getByRole("button", { name: "Save Settings" })).toBeDisabled();
    await expect(page.getByLabel("Site name")).toBeDisabled();
    await expect(page.getByText("SHOP_DEMO_MODE=false")).toBeVisible();
  } finally {
    await su.collection("settings").update(demo.id, { value: demo.value });
  }
});
