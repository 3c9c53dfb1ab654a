// Issue #15: sign-in honours ?next= (password and e-mailed code, customers and admins
// alike, onboarding first for a new account, never an open redirect), the sign-in form
// keeps the typed e-mail across its modes, and the change-password form clears a stale
// server banner on a new attempt.
import { expect, test, type Page } from "@playwright/test";
import { codeFrom, waitForMail } from "../support/smtp-sink.ts";
import { createUser, signIn, signInThroughGuard } from "./support/accounts.ts";
import { createAdmin, open, uniqueEmail } from "./support/customers.ts";
import { mailbox } from "./support/mailbox.ts";

const CODE_MODE = "No password yet? Email me a sign-in code";
const PASSWORD_MODE = "Sign in with a password instead";

async function signInWithCode(page: Page, email: string): Promise<void> {
  await page.getByRole("button", { name: CODE_MODE }).click();
  const after = Date.now() - 1000;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code", exact: true }).click();
  const mail = await waitForMail(mailbox(), email, /sign-in code/i, { after });
  await page.getByLabel("Sign-in code").fill(codeFrom(mail));
  await page.getByRole("button", { name: "Sign in with code" }).click();
}

test.describe("sign-in follows ?next=", () => {
  test("a customer returns to a deep page with its query, by password and by e-mailed code", async ({ page }) => {
    const user = await createUser();
    await signInThroughGuard(page, "/dashboard/transactions?page=1", user);
    await expect(page.getByRole("heading", { name: "Transaction History" })).toBeVisible();

    // Signed out away from the app's pages: an open dashboard page would notice the lost
    // session and navigate to its own sign-in link at the same moment as the test.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto("/terms");
    await page.evaluate(() => localStorage.clear());
    await open(page, "/login?next=%2Fdashboard%2Fsettings");
    await signInWithCode(page, user.email);
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
  });

  test("an admin returns to the console page they asked for", async ({ page }) => {
    const admin = await createAdmin();
    await signInThroughGuard(page, "/console/users", admin);
    await expect(page.getByRole("heading", { name: "User Management" }).first()).toBeVisible();
  });

  test("a customer sent to a console page lands on their dashboard", async ({ page }) => {
    const user = await createUser();
    await open(page, "/login?next=%2Fconsole%2Fusers");
    await signIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a new account goes through onboarding first, then on to the page it came for", async ({ page }) => {
    const fresh = await createUser({ onboarded: false });
    await open(page, "/login?next=%2Fdashboard%2Fsettings");
    await signIn(page, fresh.email, fresh.password);
    await expect(page).toHaveURL(/\/onboarding\?next=%2Fdashboard%2Fsettings$/);
    await expect(page.getByText("Step 1 of 6")).toBeVisible();
    await page.getByRole("button", { name: "Skip Tour" }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
  });

  for (const next of [
    "//evil.example/x",
    "%2F%252F%252Fevil.example",
    "%2F%255Cevil.example",
    "https%3A%2F%2Fevil.example",
    "javascript%3Aalert(1)",
  ]) {
    test(`an unsafe next (${next}) lands on /dashboard`, async ({ page }) => {
      const user = await createUser();
      await open(page, `/login?next=${next}`);
      await signIn(page, user.email, user.password);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("heading", { name: /Welcome/ }).first()).toBeVisible();
    });
  }
});

test("switching between password and sign-in code keeps the e-mail typed", async ({ page }) => {
  const email = uniqueEmail("keep");
  await open(page, "/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: CODE_MODE }).click();
  await expect(page.getByRole("button", { name: "Email me a sign-in code", exact: true })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(email);

  const other = uniqueEmail("changed");
  await page.getByLabel("Email address").fill(other);
  await page.getByRole("button", { name: PASSWORD_MODE }).click();
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue(other);
});

test("change password: a new attempt clears the previous server error", async ({ page }) => {
  const user = await createUser();
  await open(page, "/login?next=/dashboard/settings");
  await signIn(page, user.email, user.password);
  await page.getByRole("tab", { name: "Security" }).click();
  const submit = page.getByRole("button", { name: "Update Password" });
  const wrongCurrent = page.getByRole("alert").filter({ hasText: "The current password is incorrect." });

  await page.getByLabel("Current password").fill("Not#TheRight1");
  await page.getByLabel("New password", { exact: true }).fill("Changed#2026");
  await page.getByLabel("Confirm new password").fill("Changed#2026");
  await submit.click();
  await expect(wrongCurrent).toBeVisible();

  // A client-side error on the next attempt: only that message is shown.
  await page.getByLabel("Confirm new password").fill("Changed#2027");
  await submit.click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(wrongCurrent).toHaveCount(0);
});
