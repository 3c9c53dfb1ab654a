// Security review (issue #13), the account findings: a session issued at sign-up, before the
// address was proven, dies when someone else proves it, and the referral that sign-up chose
// goes with it (finding 3).
import { randomUUID } from "node:crypto";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPocketBase, statusOf, type TestPocketBase } from "../support/pocketbase.ts";
import { customer, shopClients, type Shop } from "../support/shop.ts";
import { codeFrom, linkFrom, smtpEnv, startTestMailbox, waitForMail, type TestMailbox } from "../support/smtp-sink.ts";

let tpb: TestPocketBase;
let shop: Shop;
let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = await startTestMailbox();
  tpb = await startTestPocketBase({ SHOP_APP_URL: "http://shop.test", ...smtpEnv(mailbox.sink) });
  shop = await shopClients(tpb);
});

afterAll(async () => {
  await tpb?.stop();
  await mailbox?.stop();
});

interface Signup {
  email: string;
  token: string;
  record: RecordModel;
  /** The token of the verification link mailed at sign-up. */
  verifyToken: string;
}

/** Signs an address up through the sign-up route, with an affiliate's code. */
async function signUpWithCode(code: string): Promise<Signup> {
  const email = `victim-${randomUUID()}@api.test`;
  const after = Date.now() - 1000;
  const auth = await tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/signup", {
    method: "POST",
    body: { first_name: "Vera", last_name: "Victim", email, country: "Chile", ref: code },
  });
  const mail = await waitForMail(mailbox.sink, email, /verify/i, { after });
  const verifyToken = new URL(linkFrom(mail, "/login?verify=")).searchParams.get("verify")!;
  return { email, token: auth.token, record: auth.record, verifyToken };
}

/** An affiliate (a customer) and their code. */
async function affiliate() {
  const owner = await customer(shop);
  const row = await shop.su.collection("affiliates").getFirstListItem(shop.su.filter("user_id = {:id}", { id: owner.id }));
  return { id: row.id, code: row["code"] as string };
}

/** Status of an auth refresh with `token`: 200 while the session lives, 401 once it is dead. */
function refreshStatus(token: string): Promise<number> {
  const pb = tpb.client();
  pb.authStore.save(token, null);
  return statusOf(() => pb.collection("users").authRefresh());
}

const referralsOf = (userId: string) => shop.su.collection("referrals").getFullList({ filter: `referred_user_id = "${userId}"` });
const totalReferrals = async (affiliateId: string) => (await shop.su.collection("affiliates").getOne(affiliateId))["total_referrals"];

describe("finding 3: a session issued before the address is proven does not survive verification", () => {
  it("the owner opening the link without the sign-up session ends the impostor's session and referral, and is signed in", async () => {
    const aff = await affiliate();
    const impostor = await signUpWithCode(aff.code);
    expect(await referralsOf(impostor.record.id)).toHaveLength(1);
    expect(await refreshStatus(impostor.token)).toBe(200);

    // The real owner opens the mailed link (no session of the account in their browser).
    const answer = await tpb.client().send<{ token?: string; record?: RecordModel }>("/api/collections/users/confirm-verification", {
      method: "POST",
      body: { token: impostor.verifyToken },
    });
    expect(answer.record?.id).toBe(impostor.record.id);
    expect(answer.record?.["verified"]).toBe(true);
    expect(answer.record?.["email"]).toBe(impostor.email);

    expect(await refreshStatus(impostor.token)).toBe(401);
    const impostorClient = tpb.client();
    impostorClient.authStore.save(impostor.token, null);
    expect(await statusOf(() => impostorClient.send("/api/v1/affiliate", {}))).toBe(401);
    expect(await referralsOf(impostor.record.id)).toHaveLength(0);
    expect(await totalReferrals(aff.id)).toBe(0);

    // The owner holds a working session; the link cannot make another.
    expect(await refreshStatus(answer.token!)).toBe(200);
    expect(await statusOf(() => tpb.client().collection("users").confirmVerification(impostor.verifyToken))).toBe(400);
  });

  it("the honest user opening the link in the browser that signed up keeps the session and the referral counts", async () => {
    const aff = await affiliate();
    const signup = await signUpWithCode(aff.code);
    const browser = tpb.client();
    browser.authStore.save(signup.token, signup.record);

    await browser.collection("users").confirmVerification(signup.verifyToken);

    expect(await refreshStatus(signup.token)).toBe(200);
    expect((await shop.su.collection("users").getOne(signup.record.id))["verified"]).toBe(true);
    expect(await referralsOf(signup.record.id)).toHaveLength(1);
    expect(await totalReferrals(aff.id)).toBe(1);
  });

  it("the owner's first sign-in with an e-mailed code ends the impostor's session and drops the referral", async () => {
    const aff = await affiliate();
    const impostor = await signUpWithCode(aff.code);
    const owner = tpb.client();
    const after = Date.now() - 1000;
    const { otpId } = await owner.collection("users").requestOTP(impostor.email);
    await owner
      .collection("users")
      .authWithOTP(otpId, codeFrom(await waitForMail(mailbox.sink, impostor.email, /sign-in code/i, { after })));

    expect(owner.authStore.record?.["verified"]).toBe(true);
    expect(await refreshStatus(impostor.token)).toBe(401);
    expect(await referralsOf(impostor.record.id)).toHaveLength(0);
    expect(await totalReferrals(aff.id)).toBe(0);
  });
});
