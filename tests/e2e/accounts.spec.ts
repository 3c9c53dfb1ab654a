// Accounts (issue #3) end to end in Chromium: sign-up, onboarding, sign-in with a
// password and with an e-mailed code (read from the SMTP sink), sign-out, the server
// guards, settings, and every validation message of the two forms.
import { expect, test, type Page } from "@playwright/test";
import PocketBase from "pocketbase";
import { createTestUser } from "../support/pocketbase.ts";
import { codeFrom, linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { E2E } from "./support/env.ts";
import { superuserClient } from "./support/pocketbase.ts";

const mailbox = (): string => {
  const url = process.env["E2E_MAILBOX_URL"];
  if (!url) throw new Error("E2E_MAILBOX_URL is not set (tests/e2e/support/global-setup.ts)");
  return url;
};

let seq = 0;
const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${seq++}@e2e.test`;

/** A signed-up customer (or admin) with a password, onboarded unless told otherwise. */
async function createUser(options: { onboarded?: boolean; admin?: boolean } = {}) {
  return createTestUser(await superuserClient(), {
    email: uniqueEmail("user"),
    password: "Customer#2026",
    first_name: "Casey",
    last_name: "Customer",
    country: "Germany",
    is_admin: options.admin ?? false,
    onboarding_completed: options.onboarded ?? true,
  });
}

/** Opens a page and waits until its islands have hydrated (Astro drops the ssr attribute). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test.describe("sign-up", () => {
  test("creates the account, lands signed in, tours onboarding, then the dashboard", async ({ page, context }) => {
    // A ?ref= on a public page is remembered in a cookie (set by the server, no JavaScript)
    // and links the account created later to that affiliate.
    const referrer = await createUser();
    const admin = await superuserClient();
    const affiliate = await admin.collection("affiliates").getFirstListItem(admin.filter("user_id = {:id}", { id: referrer.id }));
    const res = await page.request.get(`/pricing?ref=${affiliate["code"]}`);
    expect(res.headers()["set-cookie"]).toContain(`shop_ref=${affiliate["code"]}`);
    await page.goto(`/?ref=${affiliate["code"]}`);
    await page.goto("/use-cases");

    const email = uniqueEmail("signup");
    await open(page, "/signup");
    await expect(page.getByRole("heading", { name: "Create Your Account" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in here" })).toHaveAttribute("href", "/login");
    await expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
    await expect(page.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
    await expect(page.getByLabel("Password")).toHaveCount(0);

    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Lovelace");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Country").click();
    await page.getByLabel("Country").fill("united king");
    await page.getByRole("option", { name: "United Kingdom" }).click();
    await expect(page.getByLabel("Country")).toHaveValue("United Kingdom");
    await page.getByRole("button", { name: "Create Account" }).click();

    // /dashboard sends a user who has not finished onboarding to /onboarding.
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByText("Step 1 of 6")).toBeVisible();
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Step 2 of 6")).toBeVisible();
    await expect(page.getByText("$5 in free credits")).toBeVisible();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByText("Step 1 of 6")).toBeVisible();
    for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Step 6 of 6")).toBeVisible();
    await page.getByRole("button", { name: "Get Started" }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Welcome back, Ada" })).toBeVisible();
    await expect(page.getByText("Current Balance")).toBeVisible();
    await expect(page.getByTestId("referral-link")).toContainText("/signup?ref=");
    await expect(page.getByTestId("header-email")).toHaveText(email);

    // Stored on the server, and the session survives a reload.
    const pb = await superuserClient();
    const user = await pb.collection("users").getFirstListItem(pb.filter("email = {:email}", { email }));
    expect(user["onboarding_completed"]).toBe(true);
    expect(user["onboarding_completed_at"]).not.toBe("");
    expect(user["password_set"]).toBe(false);
    const referral = await pb.collection("referrals").getFirstListItem(pb.filter("referred_user_id = {:id}", { id: user.id }));
    expect(referral).toMatchObject({ affiliate_id: affiliate.id, commission_cents: 0, status: "pending" });
    await page.reload();
    await expect(page.getByRole("heading", { name: "Welcome back, Ada" })).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === "pb_auth")).toBe(true);
  });

  test("the verification link opened in another browser signs that one in and ends the sign-up's session (security review, finding 3)", async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail("verify");
    const after = Date.now() - 1000;
    const signup = await page.request.post("/api/shop/signup", {
      data: { first_name: "Iris", last_name: "Impostor", email, country: "Germany" },
    });
    expect(signup.ok()).toBe(true);
    const signupToken = ((await signup.json()) as { token: string }).token;
    const link = linkFrom(await waitForMail(mailbox(), email, /verify/i, { after }), "/login?verify=");

    const owner = await browser.newContext({ baseURL: E2E.baseUrl });
    const ownerPage = await owner.newPage();
    await ownerPage.goto(new URL(link).pathname + new URL(link).search);
    await expect(ownerPage).toHaveURL(/\/(onboarding|dashboard)$/);
    expect((await owner.cookies()).some((c) => c.name === "pb_auth")).toBe(true);
    await owner.close();

    const refresh = await page.request.post(`${E2E.pocketbaseUrl}/api/collections/users/auth-refresh`, {
      headers: { Authorization: signupToken },
    });
    expect(refresh.status()).toBe(401);
  });

  test("shows every validation message", async ({ page }) => {
    await open(page, "/signup");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Last name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await expect(page.getByText("Please select your country")).toBeVisible();
    await page.getByLabel("First name").fill("A");
    await page.getByLabel("Email address").fill("not-an-email");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  });

  test("a duplicate e-mail gets a clear message", async ({ page }) => {
    const existing = await createUser();
    await open(page, "/signup");
    await page.getByLabel("First name").fill("Dup");
    await page.getByLabel("Last name").fill("Licate");
    await page.getByLabel("Email address").fill(existing.email);
    await page.getByLabel("Country").fill("France");
    await page.getByLabel("Country").press("ArrowDown");
    await page.getByLabel("Country").press("Enter");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already exists" })).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("the country picker works by keyboard, filters, and only takes entries from the list", async ({ page }) => {
    await open(page, "/signup");
    const input = page.getByLabel("Country");
    await page.getByLabel("Email address").focus();
    await page.keyboard.press("Tab");
    await expect(input).toBeFocused();
    await page.keyboard.type("GERM");
    const options = page.getByRole("option");
    await expect(options).toHaveCount(1);
    await expect(options.first()).toHaveText("Germany");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(input).toHaveValue("Germany");
    await expect(page.getByRole("listbox")).toBeHidden();

    // Free text that matches nothing: "No countries found", and it is dropped on close.
    await input.fill("Atlantis");
    await expect(page.getByText("No countries found")).toBeVisible();
    await page.getByRole("heading", { name: "Create Your Account" }).click();
    await expect(page.getByText("No countries found")).toBeHidden();
    await expect(input).toHaveValue("Germany");

    // The full list scrolls within about 15rem and closes on an outside click.
    await input.fill("");
    await expect(page.getByRole("listbox")).toBeVisible();
    expect(await options.count()).toBeGreaterThan(190);
    const box = await page.getByRole("listbox").boundingBox();
    expect(box?.height ?? 0).toBeLessThanOrEqual(242);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("listbox")).toBeHidden();
  });
});

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
    await open(page, "/dashboard/settings");
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fsettings$/);
    await signIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.getByRole("heading", { name: "Account Settings" })).toBeVisible();
    await expect(page.getByTestId("account-type")).toHaveText("User");
    await expect(page.getByText("Contact support to change your email address")).toBeVisible();

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await open(page, "/dashboard");
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
  });

  test("an unsafe next is ignored", async ({ page }) => {
    const user = await createUser();
    await open(page, "/login?next=//evil.example/x");
    await signIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/dashboard$/);
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
    await expect(page).toHaveURL(/\/dashboard\/settings$/);

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

test.describe("guards", () => {
  test("anonymous visitors go to /login with next", async ({ page }) => {
    for (const path of ["/dashboard", "/onboarding", "/console", "/dashboard/proxies?type=RESIDENTIAL"]) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(302);
      expect(res.headers()["location"]).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
  });

  test("a customer is sent from /console to /dashboard, and to /onboarding until it is done", async ({ page }) => {
    const fresh = await createUser({ onboarded: false });
    await open(page, "/login");
    await signIn(page, fresh.email, fresh.password);
    await expect(page).toHaveURL(/\/onboarding$/);
    await open(page, "/dashboard");
    await expect(page).toHaveURL(/\/onboarding$/);
    await page.getByRole("button", { name: "Skip Tour" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await open(page, "/console");
    await expect(page).toHaveURL(/\/dashboard$/);
    const res = await page.request.get("/dashboard");
    expect(res.headers()["cache-control"]).toBe("no-store");
  });

  test("an admin sees the Administrator label and the Admin Console link; the overview shows real data", async ({ page }) => {
    const admin = await createUser({ admin: true });
    // A real ledger entry through the admin balance route.
    const api = new PocketBase(E2E.baseUrl);
    await api.collection("users").authWithPassword(admin.email, admin.password);
    await api.send(`/api/admin/users/${admin.id}/balance`, {
      method: "POST",
      body: { transaction_type: "CREDIT", amount_cents: 1234, description: "E2E top-up" },
      headers: { "Idempotency-Key": crypto.randomUUID() },
    });
    await open(page, "/login");
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Administrator", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin Console" })).toHaveAttribute("href", "/console");
    await expect(page.getByText("$12.34", { exact: true })).toBeVisible();
    await expect(page.getByText("+$12.34")).toBeVisible();
    await expect(page.getByText("E2E top-up")).toBeVisible();
  });
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
    await expect(page.getByText("API Access Coming Soon")).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await open(page, "/login");
    await signIn(page, user.email, "Changed#2026");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
