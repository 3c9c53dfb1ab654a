// The new customer (issue #15): the first visit says "Welcome" and the verify-e-mail banner
// names the welcome credit, resends the link and stays dismissed; a visitor who came in
// through another loopback name lands on APP_URL's origin, so the mailed verification link
// finds their session; and Settings → Profile edits the names and country.
import { expect, test } from "@playwright/test";
import { linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { createCustomer, signInAs } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { mailbox } from "./support/mailbox.ts";
import { superuserClient } from "./support/pocketbase.ts";

test.describe.configure({ timeout: 60_000 });

const heading = (page: import("@playwright/test").Page) => page.getByRole("heading", { level: 1 });
const hydrated = (page: import("@playwright/test").Page) => expect(page.locator("astro-island[ssr]")).toHaveCount(0);

test("first visit: Welcome and the $5 banner with resend; then Welcome back, and a dismissal that stays", async ({ page }) => {
  const user = await createCustomer({ verified: false, firstName: "Nova" });
  await signInAs(page, user, "/dashboard");
  await expect(heading(page)).toHaveText("Welcome, Nova");
  const banner = page.getByTestId("verify-email-notice");
  await expect(banner).toContainText("Verify your e-mail to receive $5 in credits");

  const after = Date.now() - 1000;
  await banner.getByRole("button", { name: "Resend verification email" }).click();
  await expect(banner).toContainText(`We sent a new verification link to ${user.email}.`);
  linkFrom(await waitForMail(mailbox(), user.email, /verif/i, { after }), "/login?verify=");

  await page.reload();
  await hydrated(page);
  await expect(heading(page)).toHaveText("Welcome back, Nova");
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await hydrated(page);
  await expect(heading(page)).toHaveText("Welcome back, Nova");
  await expect(banner).toHaveCount(0);
});

test("through another loopback name: one origin, and the verification link finds the session", async ({ page }) => {
  const user = await createCustomer({ verified: false, firstName: "Otto" });
  // E2E's APP_URL is http://127.0.0.1:PORT; the visitor types localhost.
  await page.goto(`http://localhost:${E2E.webPort}/login?next=%2Fdashboard`);
  await expect(page).toHaveURL(`${E2E.baseUrl}/login?next=%2Fdashboard`);
  await signInAs(page, user, "/dashboard");

  const after = Date.now() - 1000;
  await (await superuserClient()).collection("users").requestVerification(user.email);
  const link = linkFrom(await waitForMail(mailbox(), user.email, /verif/i, { after }), "/login?verify=");
  expect(new URL(link).origin).toBe(E2E.baseUrl);
  await page.goto(link);

  // Still signed in on the same origin: on to the dashboard by itself (issue #28), not a
  // sign-in form; verified, with the welcome credit.
  await expect(page).toHaveURL(`${E2E.baseUrl}/dashboard`);
  await hydrated(page);
  await expect(heading(page)).toHaveText(/, Otto$/);
  await expect(page.getByTestId("overview-balance")).toHaveText("$5.00");
  await expect(page.getByTestId("verify-email-notice")).toHaveCount(0);
});

test("a welcome credit the per-address limit withheld is explained on the dashboard (issue #28)", async ({ page }) => {
  const user = await createCustomer({ firstName: "Wes" });
  await signInAs(page, user, "/dashboard");
  await hydrated(page);
  await expect(page.getByTestId("welcome-withheld")).toHaveCount(0);
  // As lib/money/welcome-credit.js marks an account whose address had the day's credits.
  await (await superuserClient()).collection("users").update(user.id, { welcome_credit_withheld: true });
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("welcome-withheld")).toHaveText("Your e-mail is verified, but no welcome credit was added.");
  await expect(page.getByText(/welcome credit goes to a limited number of new accounts from one network address a day/)).toBeVisible();
  await expect(page.getByRole("link", { name: "buy credits", exact: true })).toHaveAttribute("href", "/dashboard/buy-credits");
});

test("Settings → Profile saves the names and country", async ({ page }) => {
  const user = await createCustomer({ firstName: "Pia" });
  await signInAs(page, user, "/dashboard/settings");
  await expect(page.getByTestId("profile-details")).toContainText("Pia Customer");
  await page.getByRole("button", { name: "Edit Profile" }).click();
  const first = page.getByLabel("First name");
  await expect(first).toHaveValue("Pia");
  await first.fill("R");
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByText("First name must be at least 2 characters")).toBeVisible();

  await first.fill("Robin");
  await page.getByLabel("Last name").fill("Jones");
  await page.getByLabel("Country").selectOption("France");
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByText("Profile updated successfully")).toBeVisible();
  const stored = await (await superuserClient()).collection("users").getOne(user.id);
  expect(stored).toMatchObject({ first_name: "Robin", last_name: "Jones", country: "France", is_admin: false });

  await page.goto("/dashboard");
  await expect(heading(page)).toHaveText(/, Robin$/);
});
