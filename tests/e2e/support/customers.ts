// Customers for end-to-end tests, arranged through PocketBase directly: verified (or not),
// onboarded, and funded through the admin balance route (the ledger), never by writing
// a balance.
import { expect, type Page } from "@playwright/test";
import PocketBase from "pocketbase";
import { createTestUser, type TestUser } from "../../support/pocketbase.ts";
import { E2E } from "./env.ts";
import { superuserClient } from "./pocketbase.ts";

let seq = 0;
export const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${seq++}@e2e.test`;

let admin: PocketBase | null = null;

/** A signed-in client of a shop admin made for this worker (for credits and staff replies). */
export async function adminClient(): Promise<PocketBase> {
  if (admin) return admin;
  const su = await superuserClient();
  const user = await createTestUser(su, {
    email: uniqueEmail("admin"),
    password: "Admin#E2e2026",
    is_admin: true,
    onboarding_completed: true,
  });
  admin = await userClient(user);
  return admin;
}

/** A PocketBase client signed in as `user` (the way a script of theirs would be). */
export async function userClient(user: { email: string; password: string }): Promise<PocketBase> {
  const pb = new PocketBase(E2E.pocketbaseUrl);
  pb.autoCancellation(false);
  await pb.collection("users").authWithPassword(user.email, user.password);
  return pb;
}

/** Credits (or debits) a customer through the ledger, as an admin would. */
export async function adjustBalance(userId: string, cents: number, description = "e2e funding"): Promise<void> {
  const pb = await adminClient();
  await pb.send(`/api/admin/users/${userId}/balance`, {
    method: "POST",
    body: { transaction_type: cents >= 0 ? "CREDIT" : "DEBIT", amount_cents: Math.abs(cents), description },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
}

export interface CustomerOptions {
  balanceCents?: number;
  verified?: boolean;
  onboarded?: boolean;
  firstName?: string;
}

/** A customer with a password, verified and onboarded unless told otherwise, funded with balanceCents. */
export async function createCustomer(options: CustomerOptions = {}): Promise<TestUser> {
  const su = await superuserClient();
  const user = await createTestUser(su, {
    email: uniqueEmail("customer"),
    password: "Customer#2026",
    first_name: options.firstName ?? "Casey",
    last_name: "Customer",
    country: "Germany",
    onboarding_completed: options.onboarded ?? true,
  });
  if (options.verified === false) await su.collection("users").update(user.id, { verified: false });
  if (options.balanceCents) await adjustBalance(user.id, options.balanceCents);
  return user;
}

/** Another shop admin with a password (onboarded), for signing in to the console. */
export async function createAdmin(firstName = "Avery"): Promise<TestUser> {
  const su = await superuserClient();
  return createTestUser(su, {
    email: uniqueEmail("admin"),
    password: "Admin#E2e2026",
    first_name: firstName,
    last_name: "Admin",
    is_admin: true,
    onboarding_completed: true,
  });
}

/** Opens a page and waits until its islands have hydrated (Astro drops the ssr attribute). */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
}

/** Signs in through /login and lands on `path`. */
export async function signInAs(page: Page, user: { email: string; password: string }, path = "/dashboard"): Promise<void> {
  await open(page, `/login?next=${encodeURIComponent(path)}`);
  await page.getByLabel("Email address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, "\\?")}$`));
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
}

/** The customer's balance and the sum of their ledger, read as the superuser. */
export async function ledgerOf(userId: string): Promise<{ balance: number; sum: number }> {
  const su = await superuserClient();
  const balance = await su.collection("balances").getFirstListItem(su.filter("user_id = {:id}", { id: userId }));
  const rows = await su.collection("transactions").getFullList({ filter: su.filter("user_id = {:id}", { id: userId }) });
  return { balance: balance["balance_cents"] as number, sum: rows.reduce((s, r) => s + (r["amount_cents"] as number), 0) };
}

/** Puts `count` AVAILABLE proxies of a type and place into stock; returns their ids. */
export async function addStock(options: {
  type: string;
  country: string;
  state?: string;
  city?: string;
  count: number;
}): Promise<string[]> {
  const su = await superuserClient();
  const tag = `${Date.now().toString(36)}${seq++}`;
  const ids: string[] = [];
  for (let i = 0; i < options.count; i++) {
    const record = await su.collection("proxies").create({
      host: `${options.type.toLowerCase()}-${tag}.e2e.test`,
      port: 10000 + i,
      username: `u${tag}${i}`,
      password: `p${tag}${i}Secret`,
      type: options.type,
      country: options.country,
      state: options.state ?? "",
      city: options.city ?? "",
      status: "AVAILABLE",
    });
    ids.push(record.id);
  }
  return ids;
}
