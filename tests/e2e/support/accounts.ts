// What the accounts specs share: a signed-up user made through PocketBase directly, and
// the sign-in form filled in and sent.
import { expect, type Page } from "@playwright/test";
import { createTestUser } from "../../support/pocketbase.ts";
import { open, uniqueEmail } from "./customers.ts";
import { superuserClient } from "./pocketbase.ts";

/** A signed-up customer (or admin) with a password, onboarded unless told otherwise. */
export async function createUser(options: { onboarded?: boolean; admin?: boolean } = {}) {
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

/** Fills in the sign-in form on the current page and sends it. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens `path` signed out: the guard sends the browser to sign-in with ?next=`path`, and signing in as `user` lands back on `path`. */
export async function signInThroughGuard(page: Page, path: string, user: { email: string; password: string }) {
  await open(page, path);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(path)}$`));
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
}
