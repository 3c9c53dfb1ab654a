// Accounts against a real PocketBase (hooks + migrations of this repo) and a real SMTP sink.
// Their rate limits (SHOP_AUTH_RATE_LIMIT) are in rate-limits.test.ts.
import type { RecordModel } from "pocketbase";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { codeFrom, waitForMail } from "../support/smtp-sink.ts";
import { usePocketBase } from "../support/use-shop.ts";
import { accountPasswordCases } from "./cases/account-passwords.ts";
import { accountKit, APP_URL, type AuthResponse } from "./cases/accounts-kit.ts";

const shop = usePocketBase({ mail: true, env: { SHOP_APP_URL: APP_URL }, ledger: false });
const accounts = accountKit(shop);
const { email, signup, signedIn } = accounts;

describe("POST /api/shop/signup", () => {
  it("creates the account with its own secret and signs the browser in", async () => {
    const address = email("new");
    const auth = await signup({
      first_name: " Ada ",
      last_name: "Lovelace",
      email: address.toUpperCase(),
      country: "United Kingdom",
      is_admin: true,
      password: "x",
    });
    expect(auth.token).toBeTruthy();
    expect(auth.record).toMatchObject({
      email: address,
      first_name: "Ada",
      last_name: "Lovelace",
      country: "United Kingdom",
      is_admin: false,
      verified: false,
      password_set: false,
      onboarding_completed: false,
    });
    // The token works, and no fixed password opens the account.
    const me = await signedIn(auth).collection("users").authRefresh();
    expect(me.record.id).toBe(auth.record.id);
    for (const guess of ["x", "password", "Password123!", "DefaultPassword123!"]) {
      expect((await errorOf(() => shop.tpb.client().collection("users").authWithPassword(address, guess))).status).toBe(400);
    }
  });

  it.each([
    ["email", { email: "nope" }, "Please enter a valid email address."],
    ["first_name", { first_name: "A" }, "First name must be at least 2 characters."],
    ["last_name", { last_name: " B " }, "Last name must be at least 2 characters."],
    ["country", { country: "Atlantis" }, "Please select your country."],
    ["country", { country: "" }, "Please select your country."],
  ])("rejects an invalid %s", async (field, override, message) => {
    const err = await errorOf(() =>
      signup({ first_name: "Ada", last_name: "Lovelace", email: email("bad"), country: "France", ...override }),
    );
    expect(err.status).toBe(400);
    expect(fieldErrorsOf(err)[field]["message"]).toBe(message);
  });

  it("answers a duplicate e-mail with a clear message", async () => {
    const address = email("dup");
    await signup({ first_name: "Ada", last_name: "Lovelace", email: address, country: "France" });
    const err = await errorOf(() => signup({ first_name: "Bob", last_name: "Builder", email: address.toUpperCase(), country: "Spain" }));
    expect(err.status).toBe(400);
    expect(err.response["message"]).toBe("An account with this email already exists. Please sign in instead.");
  });

  it("links the new account to the affiliate whose code is in ref; it counts once the e-mail is verified", async () => {
    const referrer = await signup({ first_name: "Ref", last_name: "Errer", email: email("referrer"), country: "Brazil" });
    // Provisioned with the user (pb_hooks/users.pb.js).
    const affiliate = await shop.su
      .collection("affiliates")
      .getFirstListItem<RecordModel>(shop.su.filter("user_id = {:id}", { id: referrer.record.id }));
    expect(affiliate["total_referrals"]).toBe(0);
    const totalReferrals = async () => (await shop.su.collection("affiliates").getOne(affiliate.id))["total_referrals"];

    const address = email("referred");
    const referred = await signup({
      first_name: "New",
      last_name: "Comer",
      email: address,
      country: "Chile",
      ref: String(affiliate["code"]).toLowerCase(),
    });
    const referral = await shop.su
      .collection("referrals")
      .getFirstListItem(shop.su.filter("referred_user_id = {:id}", { id: referred.record.id }));
    expect(referral).toMatchObject({ affiliate_id: affiliate.id, commission_cents: 0, status: "pending" });
    // Unverified sign-ups with someone's code do not inflate the count.
    await signup({ first_name: "Ghost", last_name: "Signup", email: email("ghost"), country: "Chile", ref: String(affiliate["code"]) });
    expect(await totalReferrals()).toBe(0);

    // The first sign-in with an e-mailed code, from the browser that signed up (its session
    // sent along; without it the referral is dropped, see security-accounts.test.ts),
    // verifies the address: now it counts, once.
    for (let i = 0; i < 2; i++) {
      const client = i === 0 ? signedIn(referred) : shop.tpb.client();
      const after = Date.now(); // the sink runs in this process: same clock, no older code
      const otpId = await client
        .collection("users")
        .requestOTP(address)
        .then((r) => r.otpId);
      const auth = await client
        .collection("users")
        .authWithOTP(otpId, codeFrom(await waitForMail(shop.mailbox.sink, address, /sign-in code/i, { after })));
      expect(auth.record["verified"]).toBe(true);
      expect(await totalReferrals()).toBe(1);
    }

    const unknown = await signup({ first_name: "No", last_name: "Body", email: email("noref"), country: "Chile", ref: "ZZZZZZZZ" });
    expect(
      (
        await shop.su
          .collection("referrals")
          .getList(1, 1, { filter: shop.su.filter("referred_user_id = {:id}", { id: unknown.record.id }) })
      ).totalItems,
    ).toBe(0);
  });

  it("recounts when a verified referred user is deleted", async () => {
    const referrer = await signup({ first_name: "Ref", last_name: "Two", email: email("referrer2"), country: "Brazil" });
    const affiliate = await shop.su
      .collection("affiliates")
      .getFirstListItem<RecordModel>(shop.su.filter("user_id = {:id}", { id: referrer.record.id }));
    const referred = await signup({
      first_name: "Soon",
      last_name: "Gone",
      email: email("gone"),
      country: "Chile",
      ref: String(affiliate["code"]),
    });
    // A superuser marking the e-mail verified counts too.
    await shop.su.collection("users").update(referred.record.id, { verified: true });
    expect((await shop.su.collection("affiliates").getOne(affiliate.id))["total_referrals"]).toBe(1);
    await shop.su.collection("users").delete(referred.record.id);
    expect((await shop.su.collection("affiliates").getOne(affiliate.id))["total_referrals"]).toBe(0);
  });
});

describe("what a signed-in customer can do to accounts", () => {
  let me: AuthResponse;
  let other: AuthResponse;
  let client: PocketBase;

  beforeAll(async () => {
    me = await signup({ first_name: "Me", last_name: "Myself", email: email("me"), country: "Kenya" });
    other = await signup({ first_name: "Other", last_name: "Person", email: email("other"), country: "Peru" });
    client = signedIn(me);
  });

  it("cannot make itself admin", async () => {
    await client
      .collection("users")
      .update(me.record.id, { is_admin: true })
      .catch(() => null);
    expect((await shop.su.collection("users").getOne(me.record.id))["is_admin"]).toBe(false);
  });

  it("cannot change its e-mail", async () => {
    await client
      .collection("users")
      .update(me.record.id, { email: email("hijack") })
      .catch(() => null);
    expect((await shop.su.collection("users").getOne(me.record.id)).email).toBe(me.record.email);
    expect((await errorOf(() => client.collection("users").requestEmailChange(email("hijack2")))).status).toBe(403);
  });

  it("cannot mark itself as having a password", async () => {
    expect((await errorOf(() => client.collection("users").update(me.record.id, { password_set: true }))).status).toBe(403);
    expect((await shop.su.collection("users").getOne(me.record.id))["password_set"]).toBe(false);
  });

  it("cannot read another user", async () => {
    expect((await errorOf(() => client.collection("users").getOne(other.record.id))).status).toBe(404);
    const list = await client.collection("users").getFullList();
    expect(list.map((u) => u.id)).toEqual([me.record.id]);
  });

  it("may update its own profile and onboarding flag", async () => {
    const at = new Date().toISOString();
    const updated = await client
      .collection("users")
      .update(me.record.id, { first_name: "Mia", onboarding_completed: true, onboarding_completed_at: at });
    expect(updated).toMatchObject({ first_name: "Mia", onboarding_completed: true });
  });
});

accountPasswordCases(shop, accounts);
