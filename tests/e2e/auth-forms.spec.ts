// /login and /signup are server-rendered HTML forms with a small script (no React): what
// that promises beyond the journeys in accounts.spec.ts. The forms are there before any
// script runs, nothing typed early is lost, an early click never submits natively (no
// password in a URL), and the ?verify= link of a verification mail still confirms.
import { expect, test } from "@playwright/test";
import PocketBase from "pocketbase";
import { linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { createCustomer } from "./support/customers.ts";
import { E2E } from "./support/env.ts";
import { mailbox } from "./support/mailbox.ts";
import { superuserClient } from "./support/pocketbase.ts";

test.describe.configure({ timeout: 60_000 });

test("without JavaScript both forms are on the page, with their submit buttons held back", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: E2E.baseUrl, javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/login");
    await expect(page.getByLabel("Email address")).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeDisabled();

    await page.goto("/signup");
    for (const label of ["First name", "Last name", "Email address", "Country"]) await expect(page.getByLabel(label)).toBeVisible();
    await expect(page.getByRole("button", { name: "Create Account" })).toBeDisabled();
  } finally {
    await context.close();
  }
});

test("what is typed before the script arrives is kept and signs in", async ({ page }) => {
  const user = await createCustomer();
  // Hold the page's script back until the fields are filled.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  // Module scripts hold DOMContentLoaded back: wait only for the response, then the form.
  await page.goto("/login?next=/dashboard/transactions", { waitUntil: "commit" });
  await expect(page.getByLabel("Email address")).toBeVisible();
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeDisabled();
  release();
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/transactions$/);
  expect(page.url()).not.toContain(encodeURIComponent(user.password));
});

test("the link of a verification mail confirms the address on /login", async ({ page }) => {
  const user = await createCustomer({ verified: false });
  const since = Date.now() - 1000;
  await new PocketBase(E2E.pocketbaseUrl).collection("users").requestVerification(user.email);
  const mail = await waitForMail(mailbox(), user.email, /verif/i, { after: since });
  const link = new URL(linkFrom(mail, "/login?verify="));
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("status").filter({ hasText: "Your email address is verified." })).toBeVisible();
  const su = await superuserClient();
  expect((await su.collection("users").getOne(user.id))["verified"]).toBe(true);

  // A broken token gets PocketBase's message in a red banner.
  await page.goto("/login?verify=not-a-token");
  await expect(page.getByRole("alert")).toBeVisible();
});
