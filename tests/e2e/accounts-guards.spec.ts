// Accounts (issue #3) end to end in Chromium, the server guards: anonymous visitors go to
// /login, customers stay out of /console and go to /onboarding until it is done, and an
// admin gets the Administrator label, the console link and real data on the overview.
import { expect, test } from "@playwright/test";
import PocketBase from "pocketbase";
import { createUser, signIn } from "./support/accounts.ts";
import { open } from "./support/customers.ts";
import { E2E } from "./support/env.ts";

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
