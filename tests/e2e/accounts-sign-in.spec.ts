// Accounts (issue #3) end to end in Chromium, signing in: with a password and with an
// e-mailed code (read from the SMTP sink), the safe return address, sign-out, a forgotten
// password, and changing the password in the settings, with every message of those forms.
import { expect, test } from "@playwright/test";
import { codeFrom, linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { createUser, signIn, signInThroughGuard } from "./support/accounts.ts";
import { open, uniqueEmail } from "./support/customers.ts";
import { mailbox } from "./support/mailbox.ts";

test.describe("sign-in", () => {
  test("shows the field messages and a red banner for bad credentials", async ({ page }) => {
    await open(page, "/login");
    await expect(page.getByRole("heading", { name: /^Welcome to / })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
    await expect(page.getByRole("link", { name: "create a new account" })).toHaveAttribute("href", "/signup");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();

    await page.getByLabel("Password", { exact: true }).fill("secret");
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");

    await signIn(page, uniqueEmail("nobody"), "Wrong#Password1");
    await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password." })).toBeVisible();
  });

  test("with a password returns to the page the guard sent the user from; sign-out ends the session", async ({ page }) => {
    const user = await createUser();
    await signInThroughGuard(page, "/dashboard/settings", user);
    await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
    await expect(page.getByTestId("account-type")).toHaveText("User");
    await expect(page.getByText("Contact support to change your email address")).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await open(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  });

  test("with a code e-mailed through SMTP", async ({ page }) => {
    const email = uniqueEmail("otp");
    const res = await page.request.post("/api/shop/signup", {
      data: { first_name: "Otto", last_name: "Pass", email, country: "Japan" },
    });
    expect(res.status()).toBe(200);

    await open(page, "/login?next=/dashboard/settings");
    await page.getByRole("button", { name: "No password yet? Email me a sign-in code" }).click();
    const after = Date.now() - 1000;
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in code", exact: true }).click();
    await expect(page.getByText(`we have emailed it a 6-digit sign-in code`)).toBeVisible();
    const mail = await waitForMail(mailbox(), email, /sign-in code/i, { after });
    expect(mail.text).toContain("/login");
    expect(mail.text).not.toContain("/_/");
    await page.getByLabel("Sign-in code").fill(codeFrom(mail));
    await page.getByRole("button", { name: "Sign in with code" }).click();
    // A new account tours onboarding first, carrying the page it asked for.
    await expect(page).toHaveURL(/\/onboarding\?next=%2Fdashboard%2Fsettings$/);
    await open(page, "/dashboard/settings");

    // No password of its own yet: set one through an e-mailed link to the web app.
    await page.getByRole("tab", { name: "Security" }).click();
    const linkAfter = Date.now() - 1000;
    await page.getByRole("button", { name: "Email me a link to set a password" }).click();
    await expect(page.getByText("We sent a link to set your password")).toBeVisible();
    const resetMail = await waitForMail(mailbox(), email, /password/i, { after: linkAfter });
    const link = linkFrom(resetMail, "/reset-password?token=");
    await open(page, new URL(link).pathname + new URL(link).search);
    await page.getByLabel("New password", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill("Chosen#Pass9");
    await page.getByLabel("Confirm new password").fill("Chosen#Pass9");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByText("Your password is set.")).toBeVisible();

    await open(page, "/login");
    await signIn(page, email, "Chosen#Pass9");
    await expect(page).toHaveURL(/\/onboarding$/);
  });
});

test("forgot your password: a link mailed from the sign-in page sets a new password", async ({ page }) => {
  const user = await createUser();
  await open(page, "/login");
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  const after = Date.now() - 1000;
  await page.getByLabel("Email address").fill(user.email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByText(`If an account exists for ${user.email}, we have emailed it a link`)).toBeVisible();

  const mail = await waitForMail(mailbox(), user.email, /password/i, { after });
  const link = new URL(linkFrom(mail, "/reset-password?token="));
  await open(page, link.pathname + link.search);
  await page.getByLabel("New password", { exact: true }).fill("Recovered#Pass7");
  await page.getByLabel("Confirm new password").fill("Recovered#Pass7");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Your password is set.")).toBeVisible();

  await open(page, "/login");
  await signIn(page, user.email, user.password);
  await expect(page.getByRole("alert")).toBeVisible();
  await signIn(page, user.email, "Recovered#Pass7");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test.describe("settings", () => {
  test("change password: messages, the current password is checked, success keeps the session", async ({ page }) => {
    const user = await createUser();
    await open(page, "/login?next=/dashboard/settings");
    await signIn(page, user.email, user.password);
    await page.getByRole("tab", { name: "Security" }).click();
    await expect(page.getByText("Two-factor authentication is not yet enabled")).toBeVisible();

    const submit = page.getByRole("button", { name: "Update Password" });
    await submit.click();
    await expect(page.getByText("Current password is required")).toBeVisible();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    const newPassword = page.getByLabel("New password", { exact: true });
    for (const [value, message] of [
      ["abcdefgh", "Password must contain an uppercase letter"],
      ["Abcdefgh", "Password must contain a number"],
      ["Abcdefg1", "Password must contain a special character"],
    ] as const) {
      await newPassword.fill(value);
      await submit.click();
      await expect(page.getByText(message)).toBeVisible();
    }
    await newPassword.fill("Changed#2026");
    await page.getByLabel("Confirm new password").fill("Changed#2027");
    await submit.click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();

    await page.getByLabel("Current password").fill("Not#TheRight1");
    await page.getByLabel("Confirm new password").fill("Changed#2026");
    await submit.click();
    await expect(page.getByRole("alert").filter({ hasText: "current password is incorrect" })).toBeVisible();

    await page.getByLabel("Current password").fill(user.password);
    await submit.click();
    await expect(page.getByText("Password updated successfully")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveValue("");

    await page.reload();
    await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
    await page.getByRole("tab", { name: "API Access" }).click();
    await expect(page.getByRole("heading", { name: "API Access" })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await open(page, "/login");
    await signIn(page, user.email, "Changed#2026");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
