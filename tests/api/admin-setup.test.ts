// The first administrator on a real host (issue #17): setupLink runs `pocketbase
// admin-setup` on the shop's data dir, the link's token works once, for 30 minutes,
// optionally for one e-mail, and creates a verified admin (signed in, audited); the public
// status route says whether an admin exists, and nothing else.
import { createHash } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminExists, setupLink } from "../../server/admin-setup.ts";
import { auditRows } from "../support/admin.ts";
import { createTestUser, errorOf, TEST_CREDENTIALS_KEY } from "../support/pocketbase.ts";
import { usePocketBase } from "../support/use-shop.ts";

const APP_URL = "https://shop.example.test";
const STRONG = "Setup#Admin2026";

describe("first administrator setup", () => {
  const shop = usePocketBase();
  let seq = 0;

  const link = (options: { email?: string; ifNoAdmin?: boolean } = {}) =>
    setupLink({ dataDir: shop.tpb.dataDir, appUrl: APP_URL, credentialsKey: TEST_CREDENTIALS_KEY, ...options });
  const tokenOf = (url: string | null) => new URL(url ?? "").searchParams.get("token") ?? "";
  const status = () => shop.tpb.client().send<{ has_admin: boolean }>("/api/setup/status", {});
  const check = (token: string) =>
    shop.tpb.client().send<{ valid: boolean; email: string | null; expires_at: string }>("/api/setup/check", {
      method: "POST",
      body: { token },
    });
  const create = (token: string, fields: Record<string, string> = {}) =>
    shop.tpb.client().send<{ token: string; record: RecordModel }>("/api/setup/admin", {
      method: "POST",
      body: { token, first_name: "Ada", last_name: "Owner", email: `owner-${Date.now()}-${seq++}@api.test`, password: STRONG, ...fields },
    });
  const tokenRow = (token: string) =>
    shop.su.collection("admin_setup_tokens").getFirstListItem(shop.su.filter("token_hash = {:h}", { h: sha256(token) }));

  it("makes a 30-minute link whose token is stored only as its hash, and the status says no admin exists", async () => {
    expect(await status()).toEqual({ has_admin: false });
    expect(await adminExists({ dataDir: shop.tpb.dataDir })).toBe(false);
    const url = await link({ ifNoAdmin: true });
    expect(url).toMatch(/^https:\/\/shop\.example\.test\/console\/setup\?token=[A-Za-z0-9]{43}$/);
    const token = tokenOf(url);
    const row = await tokenRow(token);
    expect(JSON.stringify(row)).not.toContain(token);
    const minutes = (Date.parse(String(row["expires_at"])) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);
    expect(await check(token)).toMatchObject({ valid: true, email: null });
  });

  it("refuses unknown and expired tokens with their messages, and a link for a taken or invalid e-mail", async () => {
    const unknown = await errorOf(() => create("x".repeat(43)));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe(
      "This setup link is not valid. Make a new one on the server with `proxy-shop admin create <email>` (or `npm run admin:create -- <email>`).",
    );
    const token = tokenOf(await link());
    const row = await tokenRow(token);
    await shop.su.collection("admin_setup_tokens").update(row.id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    const expired = await errorOf(() => create(token));
    expect(expired.status).toBe(410);
    expect(expired.message).toMatch(/^This setup link has expired \(links work for 30 minutes\)\./);
    expect((await errorOf(() => check(token))).status).toBe(410);

    const customer = await createTestUser(shop.su);
    await expect(link({ email: customer.email })).rejects.toThrow(/an account with the e-mail .* exists already/);
    await expect(link({ email: "not-an-address" })).rejects.toThrow(/is not a valid e-mail address/);
    expect((await shop.su.collection("users").getFullList({ filter: "is_admin = true" })).length).toBe(0);
  });

  it("a link for one e-mail creates that admin once, under concurrency, signed in and audited", async () => {
    const email = `first-admin-${Date.now()}@api.test`;
    const token = tokenOf(await link({ email: email.toUpperCase(), ifNoAdmin: true }));
    expect(await check(token)).toMatchObject({ valid: true, email });

    const other = await errorOf(() => create(token, { email: "someone-else@api.test" }));
    expect(other.status).toBe(400);
    expect(other.message).toBe("This setup link is for another email address.");
    const weak = await errorOf(() => create(token, { email, password: "weak" }));
    expect(weak.status).toBe(400);

    const results = await Promise.allSettled([create(token, { email }), create(token, { email }), create(token, { email })]);
    const made = results.filter((r) => r.status === "fulfilled");
    expect(made).toHaveLength(1);
    const refusals = results.flatMap((r) => (r.status === "rejected" ? [r.reason as { status: number; message: string }] : []));
    expect(refusals.map((r) => r.status)).toEqual([410, 410]);
    expect(refusals[0]?.message).toBe(
      "This setup link has already been used. Sign in to the console with the administrator account it created.",
    );

    const { token: session, record } = (made[0] as PromiseFulfilledResult<{ token: string; record: RecordModel }>).value;
    expect(session).toBeTruthy();
    expect(record).toMatchObject({ email, is_admin: true, verified: true, onboarding_completed: true });
    const signedIn = shop.tpb.client();
    await signedIn.collection("users").authWithPassword(email, STRONG);
    expect(signedIn.authStore.record?.["is_admin"]).toBe(true);

    const audit = await auditRows(shop.su, shop.su.filter("action = 'admin_setup.create' && target_id = {:id}", { id: record.id }));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ admin_id: record.id, target_type: "users", details: { email, link_email: email } });
    expect(await tokenRow(token)).toMatchObject({ used_by: record.id });

    expect(await status()).toEqual({ has_admin: true });
    expect(await adminExists({ dataDir: shop.tpb.dataDir })).toBe(true);
    expect(await link({ ifNoAdmin: true })).toBeNull();
    expect((await errorOf(() => create(token, { email }))).status).toBe(410);
  });
});

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
