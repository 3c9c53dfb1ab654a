// Accounts against a real PocketBase (hooks + migrations of this repo) and a real SMTP sink.
// Their rate limits (SHOP_AUTH_RATE_LIMIT) are in rate-limits.test.ts.
import type { RecordModel } from "pocketbase";
import type PocketBase from "pocketbase";
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../support/pocketbase.ts";
import { codeFrom, linkFrom, waitForMail } from "../support/smtp-sink.ts";
import { usePocketBase } from "../support/use-shop.ts";

const APP_URL = "http://shop.test:4321";
const shop = usePocketBase({ mail: true, env: { SHOP_APP_URL: APP_URL }, ledger: false });
let seq = 0;

const email = (tag: string) => `${tag}-${seq++}@api.test`;

interface AuthResponse {
  token: string;
  record: Record<string, unknown> & { id: string; email: string };
}

async function signup(body: Record<string, unknown>, client = shop.tpb.client()): Promise<AuthResponse> {
  return client.send<AuthResponse>("/api/shop/signup", { method: "POST", body });
}

function signedIn(auth: AuthResponse): PocketBase {
  const client = shop.tpb.client();
  client.authStore.save(auth.token, auth.record as never);
  return client;
}

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
    expect(err.response["data"][field]["message"]).toBe(message);
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

describe("e-mail: codes and password links through SMTP", () => {
  it("signs in with a one-time code and sets a password through a link to the web app", async () => {
    const address = email("otp");
    await signup({ first_name: "Otto", last_name: "Code", email: address, country: "Japan" });
    const client = shop.tpb.client();
    const after = Date.now() - 1000;
    const otpId = await client
      .collection("users")
      .requestOTP(address)
      .then((r) => r.otpId);
    const mail = await waitForMail(shop.mailbox.sink, address, /sign-in code/i, { after });
    expect(mail.text).toContain(`${APP_URL}/login`);
    const auth = await client.collection("users").authWithOTP(otpId, codeFrom(mail));
    expect(auth.record).toMatchObject({ email: address, verified: true, password_set: false });

    await client.collection("users").requestPasswordReset(address);
    const resetMail = await waitForMail(shop.mailbox.sink, address, /password/i, { after });
    const link = new URL(linkFrom(resetMail, "/reset-password?token="));
    expect(link.origin + link.pathname).toBe(`${APP_URL}/reset-password`);
    await client.collection("users").confirmPasswordReset(link.searchParams.get("token") ?? "", "Chosen#Pass9", "Chosen#Pass9");
    const withPassword = await shop.tpb.client().collection("users").authWithPassword(address, "Chosen#Pass9");
    expect(withPassword.record["password_set"]).toBe(true);
  });

  it("changing the password checks the current one and ends old sessions", async () => {
    const address = email("pw");
    const created = await shop.su.collection("users").create({
      email: address,
      password: "First#Pass1",
      passwordConfirm: "First#Pass1",
      first_name: "Pat",
      last_name: "Word",
      country: "Italy",
    });
    expect(created["password_set"]).toBe(true);
    const client = shop.tpb.client();
    await client.collection("users").authWithPassword(address, "First#Pass1");
    const oldToken = client.authStore.token;

    expect(
      (await errorOf(() => client.collection("users").update(created.id, { password: "Second#Pass2", passwordConfirm: "Second#Pass2" })))
        .status,
    ).toBe(400);
    const wrong = await errorOf(() =>
      client
        .collection("users")
        .update(created.id, { oldPassword: "Wrong#Pass0", password: "Second#Pass2", passwordConfirm: "Second#Pass2" }),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.response["data"]["oldPassword"]).toBeTruthy();

    await client
      .collection("users")
      .update(created.id, { oldPassword: "First#Pass1", password: "Second#Pass2", passwordConfirm: "Second#Pass2" });
    const stale = shop.tpb.client();
    stale.authStore.save(oldToken, null);
    expect((await errorOf(() => stale.collection("users").authRefresh())).status).toBe(401);
    await shop.tpb.client().collection("users").authWithPassword(address, "Second#Pass2");
  });
});

describe("password strength on the server (the web app's rules)", () => {
  const WEAK: [string, string][] = [
    ["Sh#rt1A", "Password must be at least 8 characters"],
    ["lower#case1", "Password must contain an uppercase letter"],
    ["No#Digits!", "Password must contain a number"],
    ["NoSpecial12", "Password must contain a special character"],
  ];

  it.each(WEAK)("refuses %s as a new password in the settings form: %s", async (weak, message) => {
    const address = email("weak");
    const created = await shop.su.collection("users").create({
      email: address,
      password: "First#Pass1",
      passwordConfirm: "First#Pass1",
      first_name: "Wea",
      last_name: "Kling",
      country: "Italy",
    });
    const client = shop.tpb.client();
    await client.collection("users").authWithPassword(address, "First#Pass1");
    const before = await shop.su.collection("users").getOne(created.id);

    const err = await errorOf(() =>
      client.collection("users").update(created.id, { oldPassword: "First#Pass1", password: weak, passwordConfirm: weak }),
    );
    expect(err.status).toBe(400);
    // PocketBase ends every message with a full stop.
    expect(err.response["message"]).toBe(`${message}.`);
    expect(err.response["data"]["password"]).toEqual({ code: "weak_password", message: `${message}.` });

    // Nothing changed: the old password still signs in, the new one does not, and the session lives on.
    expect(await shop.su.collection("users").getOne(created.id)).toEqual(before);
    expect((await errorOf(() => shop.tpb.client().collection("users").authWithPassword(address, weak))).status).toBe(400);
    await shop.tpb.client().collection("users").authWithPassword(address, "First#Pass1");
    await client.collection("users").authRefresh();
  });

  it("refuses a weak password from a reset link and takes a strong one with the same link", async () => {
    const address = email("resetweak");
    await signup({ first_name: "Res", last_name: "Etter", email: address, country: "Japan" });
    const client = shop.tpb.client();
    const after = Date.now() - 1000;
    await client.collection("users").requestPasswordReset(address);
    const token =
      new URL(linkFrom(await waitForMail(shop.mailbox.sink, address, /password/i, { after }), "/reset-password?token=")).searchParams.get(
        "token",
      ) ?? "";

    const err = await errorOf(() => client.collection("users").confirmPasswordReset(token, "password1", "password1"));
    expect(err.status).toBe(400);
    expect(err.response["data"]["password"]).toEqual({ code: "weak_password", message: "Password must contain an uppercase letter." });
    expect((await errorOf(() => shop.tpb.client().collection("users").authWithPassword(address, "password1"))).status).toBe(400);
    const stored = await shop.su.collection("users").getFirstListItem(shop.su.filter("email = {:address}", { address }));
    expect(stored).toMatchObject({ password_set: false, verified: false });

    await client.collection("users").confirmPasswordReset(token, "Strong#Pass9", "Strong#Pass9");
    const auth = await shop.tpb.client().collection("users").authWithPassword(address, "Strong#Pass9");
    expect(auth.record).toMatchObject({ password_set: true, verified: true });
  });

  it("lets a superuser set any password (not client-chosen)", async () => {
    const address = email("supw");
    const created = await shop.su.collection("users").create({
      email: address,
      password: "First#Pass1",
      passwordConfirm: "First#Pass1",
      first_name: "Sue",
      last_name: "Perr",
      country: "Italy",
    });
    await shop.su.collection("users").update(created.id, { password: "plainpassword", passwordConfirm: "plainpassword" });
    await shop.tpb.client().collection("users").authWithPassword(address, "plainpassword");
  });
});
