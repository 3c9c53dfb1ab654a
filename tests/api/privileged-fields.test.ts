// Fields only the server may set: a client that tries is refused (or overridden by a
// hook), and the stored row shows it.
import { describe, expect, it } from "vitest";
import { useCast } from "../support/cast.ts";
import { createTestUser, errorOf, signIn, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { setProxyColumns, proxyFields } from "../support/shop.ts";
import { usePocketBase } from "../support/use-shop.ts";
import { supportFieldCases } from "./cases/support-fields.ts";

const pocketbase = usePocketBase({ ledger: false });
const cast = useCast(pocketbase);

describe("users", () => {
  it.each([
    ["is_admin", { is_admin: true }],
    ["email", { email: "someone-else@test.local" }],
    ["verified", { verified: false }],
    ["emailVisibility", { emailVisibility: true }],
  ])("a user cannot change their own %s", async (_field, body) => {
    const before = await pocketbase.su.collection("users").getOne(cast.alice.id);
    expect(await statusOf(() => cast.asAlice.collection("users").update(cast.alice.id, body))).toBe(404);
    expect(await pocketbase.su.collection("users").getOne(cast.alice.id)).toEqual(before);
  });

  it("a user can change their profile and onboarding fields", async () => {
    const body = {
      first_name: "Alicia",
      last_name: "Smith",
      country: "Germany",
      onboarding_completed: true,
      onboarding_completed_at: "2026-11-22 10:00:00.000Z",
    };
    await cast.asAlice.collection("users").update(cast.alice.id, body);
    const stored = await pocketbase.su.collection("users").getOne(cast.alice.id);
    expect(stored).toMatchObject({ ...body, is_admin: false });
  });

  it("a profile edit takes only a country from the sign-up list, with the sign-up form's message (issue #15)", async () => {
    const before = await pocketbase.su.collection("users").getOne(cast.alice.id);
    const err = await errorOf(() => cast.asAlice.collection("users").update(cast.alice.id, { first_name: "Alina", country: "Atlantis" }));
    expect(err.status).toBe(400);
    expect((fieldErrorsOf(err) as Record<string, { message: string }>)["country"]?.message).toBe("Please select your country.");
    expect(await pocketbase.su.collection("users").getOne(cast.alice.id)).toEqual(before);
  });

  it("changing the password needs the current one", async () => {
    const user = await createTestUser(pocketbase.su);
    const pb = await signIn(pocketbase.tpb, user);
    const next = "N3w-Passw0rd!x";
    expect(await statusOf(() => pb.collection("users").update(user.id, { password: next, passwordConfirm: next }))).toBe(400);
    expect(
      await statusOf(() =>
        pb.collection("users").update(user.id, { password: next, passwordConfirm: next, oldPassword: "wrong-password" }),
      ),
    ).toBe(400);
    expect(await statusOf(() => pocketbase.tpb.client().collection("users").authWithPassword(user.email, next))).toBe(400);
    await pb.collection("users").update(user.id, { password: next, passwordConfirm: next, oldPassword: user.password });
    await expect(pocketbase.tpb.client().collection("users").authWithPassword(user.email, next)).resolves.toBeTruthy();
  });

  it("admins see customers' e-mail addresses; an admin's own password change still needs the old one", async () => {
    const listed = await cast.asAdmin.collection("users").getFullList();
    expect(listed.find((u) => u.id === cast.alice.id)?.["email"]).toBe(cast.alice.email);
    const next = "Adm1n-Next#Pass";
    expect(await statusOf(() => cast.asAdmin.collection("users").update(cast.admin.id, { password: next, passwordConfirm: next }))).toBe(
      400,
    );
    expect(await statusOf(() => cast.asAdmin.collection("users").update(cast.alice.id, { password: next, passwordConfirm: next }))).toBe(
      404,
    );
    expect(await statusOf(() => pocketbase.tpb.client().collection("users").authWithPassword(cast.alice.email, next))).toBe(400);
  });

  it("nobody can sign up through the records API, not even as admin", async () => {
    const status = await statusOf(() =>
      pocketbase.tpb
        .client()
        .collection("users")
        .create({ email: "x@test.local", password: "Passw0rd#123", passwordConfirm: "Passw0rd#123", is_admin: true }),
    );
    expect(status).toBe(403);
    expect(await pocketbase.su.collection("users").getFullList({ filter: 'email = "x@test.local"' })).toHaveLength(0);
  });

  it("a user cannot start an e-mail change", async () => {
    expect(await statusOf(() => cast.asAlice.collection("users").requestEmailChange("new-address@test.local"))).toBe(403);
  });
});

describe("money", () => {
  it("a customer cannot write their balance", async () => {
    const balance = await pocketbase.su.collection("balances").getFirstListItem(`user_id = "${cast.alice.id}"`);
    expect(await statusOf(() => cast.asAlice.collection("balances").update(balance.id, { balance_cents: 100_000 }))).toBe(403);
    expect(await statusOf(() => cast.asAlice.collection("balances").update(balance.id, { "balance_cents+": 100_000 }))).toBe(403);
    expect((await pocketbase.su.collection("balances").getOne(balance.id))["balance_cents"]).toBe(balance["balance_cents"]);
  });

  it("not even the superuser writes a balance or the ledger through the API", async () => {
    const balance = await pocketbase.su.collection("balances").getFirstListItem(`user_id = "${cast.alice.id}"`);
    expect(await statusOf(() => pocketbase.su.collection("balances").update(balance.id, { balance_cents: 999_999 }))).toBe(403);
    expect(await statusOf(() => pocketbase.su.collection("balances").delete(balance.id))).toBe(403);
    expect(await pocketbase.su.collection("balances").getOne(balance.id)).toEqual(balance);
    expect(
      await statusOf(() =>
        pocketbase.su.collection("transactions").create({
          user_id: cast.alice.id,
          type: "CREDIT",
          amount_cents: 999_999,
          balance_after_cents: 999_999,
          description: "superuser money",
        }),
      ),
    ).toBe(403);
    expect(await pocketbase.su.collection("transactions").getFullList({ filter: 'description = "superuser money"' })).toHaveLength(0);
  });

  it("not even the superuser writes affiliate counts or earnings, or referrals", async () => {
    const affiliate = await pocketbase.su.collection("affiliates").getFirstListItem(`user_id = "${cast.bob.id}"`);
    for (const body of [
      { total_referrals: 99 },
      { total_earnings_cents: 500_000 },
      { pending_earnings_cents: 500_000 },
      { "total_referrals+": 1 },
    ]) {
      expect(await statusOf(() => pocketbase.su.collection("affiliates").update(affiliate.id, body))).toBe(403);
    }
    expect(await pocketbase.su.collection("affiliates").getOne(affiliate.id)).toEqual(affiliate);
    const carol = await createTestUser(pocketbase.su);
    expect(
      await statusOf(() =>
        pocketbase.su
          .collection("referrals")
          .create({ affiliate_id: affiliate.id, referred_user_id: carol.id, commission_cents: 100_000, status: "paid" }),
      ),
    ).toBe(403);
    expect(await pocketbase.su.collection("referrals").getFullList({ filter: `referred_user_id = "${carol.id}"` })).toHaveLength(0);
  });

  it("nobody but the server writes ledger rows, not even an admin", async () => {
    for (const pb of [cast.asAlice, cast.asAdmin]) {
      const status = await statusOf(() =>
        pb.collection("transactions").create({
          user_id: cast.alice.id,
          type: "CREDIT",
          amount_cents: 100_000,
          balance_after_cents: 100_000,
          description: "free money",
        }),
      );
      expect(status).toBe(403);
    }
    expect(await pocketbase.su.collection("transactions").getFullList({ filter: 'description = "free money"' })).toHaveLength(0);
  });

  it("affiliate and referral commissions are read-only to their owner", async () => {
    const affiliate = await pocketbase.su.collection("affiliates").getFirstListItem(`user_id = "${cast.alice.id}"`);
    expect(
      await statusOf(() =>
        cast.asAlice
          .collection("affiliates")
          .update(affiliate.id, { total_earnings_cents: 500_000, pending_earnings_cents: 500_000, code: "MINE" }),
      ),
    ).toBe(403);
    expect(await pocketbase.su.collection("affiliates").getOne(affiliate.id)).toEqual(affiliate);

    const signup = await pocketbase.tpb.client().send<{ record: { id: string } }>("/api/shop/signup", {
      method: "POST",
      body: {
        first_name: "Refd",
        last_name: "Friend",
        email: `referred-${Date.now()}@test.local`,
        country: "Canada",
        ref: affiliate["code"],
      },
    });
    const referral = await pocketbase.su.collection("referrals").getFirstListItem(`referred_user_id = "${signup.record.id}"`);
    expect(
      await statusOf(() => cast.asAlice.collection("referrals").update(referral.id, { commission_cents: 100_000, status: "paid" })),
    ).toBe(403);
    expect(await pocketbase.su.collection("referrals").getOne(referral.id)).toEqual(referral);
  });
});

describe("proxies", () => {
  it("an owner cannot change a proxy's owner, status or expiry", async () => {
    // Stock made through the API, given to Alice in data.db (the records API sets no owner: finding 6).
    const stock = await pocketbase.su
      .collection("proxies")
      .create(proxyFields({ host: "owned.test", port: 3128, username: "u1", password: "Owned#Proxy2026" }));
    setProxyColumns(pocketbase.tpb, [stock.id], {
      status: "ASSIGNED",
      assigned_to_user_id: cast.alice.id,
      expires_at: "2099-01-01 00:00:00.000Z",
    });
    const proxy = await pocketbase.su.collection("proxies").getOne(stock.id);
    for (const body of [{ status: "AVAILABLE" }, { assigned_to_user_id: cast.bob.id }, { expires_at: "2199-01-01 00:00:00.000Z" }]) {
      expect(await statusOf(() => cast.asAlice.collection("proxies").update(proxy.id, body))).toBe(404);
    }
    expect(await pocketbase.su.collection("proxies").getOne(proxy.id)).toEqual(proxy);
  });
});

describe("audit log", () => {
  it("is append-only: even the superuser cannot create, edit or delete rows through the API", async () => {
    await cast.asAdmin.collection("settings").create({ key: "audit_probe", value: "1" });
    const row = await pocketbase.su.collection("audit_logs").getFirstListItem('action = "settings.create"');
    expect(await statusOf(() => pocketbase.su.collection("audit_logs").update(row.id, { action: "nothing.happened" }))).toBe(403);
    expect(await statusOf(() => pocketbase.su.collection("audit_logs").delete(row.id))).toBe(403);
    expect(await statusOf(() => pocketbase.su.collection("audit_logs").create({ action: "forged", target_type: "x" }))).toBe(403);
    expect(await pocketbase.su.collection("audit_logs").getOne(row.id)).toEqual(row);
  });
});

supportFieldCases(pocketbase, cast);
