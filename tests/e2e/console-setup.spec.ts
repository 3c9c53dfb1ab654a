// The first administrator on a real host (issue #17): the console's sign-in page says how
// to get a setup link while no admin exists; the link `admin create <email>` prints
// (server/admin-setup.ts setupLink) opens /console/setup with the e-mail locked, creates the
// admin, lands in the console, and is spent.
import { expect, test } from "@playwright/test";
import { setupLink } from "../../server/admin-setup.ts";
import { expectNoAxeViolations } from "./support/checks.ts";
import { open, uniqueEmail } from "./support/customers.ts";
import { E2E } from "./support/env.ts";

test.describe.configure({ timeout: 90_000 });

test("/console's sign-in explains the setup link only while no administrator exists", async ({ page }) => {
  // Other specs make admins in this shop, so the status is answered here both ways.
  let hasAdmin = false;
  await page.route("**/api/setup/status", (route) => route.fulfill({ json: { has_admin: hasAdmin } }));
  await open(page, "/console");
  await expect(page).toHaveURL(/\/login\?next=%2Fconsole$/);
  const notice = page.getByRole("status").filter({ hasText: "This shop has no administrator yet." });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("proxy-shop admin create <email>");
  await expectNoAxeViolations(page);

  hasAdmin = true;
  await open(page, "/login?next=%2Fconsole");
  await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  await expect(page.getByText("This shop has no administrator yet.")).toBeHidden();
});

test("a setup link creates the administrator it names, signs them in to the console, and works once", async ({ page, browser }) => {
  const email = uniqueEmail("owner");
  const link = await setupLink({ dataDir: process.env["E2E_DATA_DIR"]!, appUrl: E2E.baseUrl, email });
  expect(link).toMatch(/\/console\/setup\?token=[A-Za-z0-9]{43}$/);

  await open(page, link!);
  await expect(page.getByRole("heading", { name: "Create the First Administrator" })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);
  await expect(page.getByLabel("Email address")).toHaveAttribute("readonly", "");
  await page.getByLabel("First name").fill("Owen");
  await page.getByLabel("Last name").fill("Owner");
  await page.getByLabel("Password", { exact: true }).fill("Owner#Setup2026");
  await page.getByLabel("Confirm password").fill("Owner#Setup2026");
  await page.getByRole("button", { name: "Create Administrator" }).click();
  await expect(page.getByRole("heading", { name: "Admin Overview", level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/console$/);

  const other = await (await browser.newContext()).newPage();
  await open(other, link!);
  await expect(other.getByRole("heading", { name: "Setup link not valid" })).toBeVisible();
  await expect(other.getByText("This setup link has already been used.")).toBeVisible();
  await other.context().close();
});
