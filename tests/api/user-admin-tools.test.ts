// The admin's user tools (issue #15, "The admin's tools"): make admin only with the user's
// e-mail typed, change a user's e-mail (a notice to the old address, verification of the
// new one), mark verified / resend the verification mail, suspend (sessions end at once,
// sign-in refused with its message) and unsuspend, and delete on request (personal data
// erased, the ledger and orders kept). Each refused to anonymous callers and customers, each
// written to the audit log with the user as its target.
import type PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { adminSend } from "../support/admin.ts";
import { createTestUser, errorOf, signIn, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, ledgerOf, proxyBuyer, post } from "../support/shop.ts";
import { codeFrom, waitForMail } from "../support/smtp-sink.ts";
import { useShop } from "../support/use-shop.ts";
import { auditRowsOfTarget } from "./cases/console-users-kit.ts";

const shop = useShop({ mail: true });
const adminId = () => shop.admin.authStore.record!.id;
const SUSPENDED = "This account is suspended. Contact support.";

const userRow = (id: string) => shop.su.collection("users").getOne(id);
const actionsOf = async (id: string) => (await auditRowsOfTarget(shop, id)).map((l) => [l["action"], l["admin_id"], l["target_type"]]);

describe("who may use the user tools", () => {
  it("answers anonymous callers 401 and customers 403, changing nothing", async () => {
    const target = await customer(shop);
    const someone = await customer(shop);
    const anonymous = shop.tpb.client();
    const calls: [string, unknown][] = [
      ["admin", { is_admin: true, confirm_email: target.email }],
      ["email", { email: `new-${target.email}` }],
      ["verify", {}],
      ["verification", {}],
      ["suspension", { suspended: true }],
      ["delete", { confirm_email: target.email }],
    ];
    for (const [tool, body] of calls) {
      const call = (pb: PocketBase) => adminSend(pb, `/api/admin/users/${target.id}/${tool}`, body);
      expect(await statusOf(() => call(anonymous)), `${tool} anonymous`).toBe(401);
      expect(await statusOf(() => call(someone.pb)), `${tool} customer`).toBe(403);
    }
    expect(await userRow(target.id)).toMatchObject({ email: target.email, is_admin: false, verified: true, suspended: false });
    expect(await auditRowsOfTarget(shop, target.id)).toHaveLength(0);
  });
});

describe("make admin", () => {
  it("is refused without the user's e-mail typed, and granted with it", async () => {
    const target = await customer(shop);
    for (const body of [{ is_admin: true }, { is_admin: true, confirm_email: "someone@else.test" }]) {
      const err = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, body));
      expect(err.status).toBe(400);
      expect(err.message).toBe("Type the user's e-mail address to confirm.");
      expect(fieldErrorsOf(err)["confirm_email"]["message"]).toBe("Type the user's e-mail address to confirm.");
    }
    expect((await userRow(target.id))["is_admin"]).toBe(false);
    const granted = await adminSend(shop.admin, `/api/admin/users/${target.id}/admin`, {
      is_admin: true,
      confirm_email: ` ${target.email.toUpperCase()} `,
    });
    expect(granted).toMatchObject({ id: target.id, is_admin: true });
    expect(await actionsOf(target.id)).toEqual([["users.admin_grant", adminId(), "users"]]);
  });
});

describe("suspend and unsuspend", () => {
  it("ends the user's sessions at once, refuses their sign-in with its message, and unsuspends", async () => {
    const target = await customer(shop, 1000);
    expect(await statusOf(() => target.pb.send("/api/v1/credits/packages", {}))).toBe(200);

    const suspended = await adminSend(shop.admin, `/api/admin/users/${target.id}/suspension`, { suspended: true });
    expect(suspended).toMatchObject({ id: target.id, suspended: true });
    expect((await userRow(target.id))["suspended"]).toBe(true);

    // The token they held stops working, for the API and for a refresh.
    expect(await statusOf(() => target.pb.send("/api/v1/credits/packages", {}))).toBe(401);
    expect(await statusOf(() => target.pb.collection("users").authRefresh())).toBe(401);
    // Signing in again is refused with the message the login form shows.
    const refused = await errorOf(() => signIn(shop.tpb, target));
    expect(refused.status).toBe(403);
    expect(refused.message).toBe(SUSPENDED);
    // Nor can they sign in with an e-mailed code.
    const otp = await shop.tpb.client().collection("users").requestOTP(target.email);
    const code = codeFrom(await waitForMail(shop.mailbox.sink, target.email, /code/i));
    const byCode = await errorOf(() => shop.tpb.client().collection("users").authWithOTP(otp.otpId, code));
    expect(byCode.status).toBe(403);
    expect(byCode.message).toBe(SUSPENDED);

    const back = await adminSend(shop.admin, `/api/admin/users/${target.id}/suspension`, { suspended: false });
    expect(back).toMatchObject({ suspended: false });
    expect(await statusOf(() => signIn(shop.tpb, target))).toBe(200);
    expect(await actionsOf(target.id)).toEqual([
      ["users.balance_credit", adminId(), "users"],
      ["users.suspend", adminId(), "users"],
      ["users.unsuspend", adminId(), "users"],
    ]);
  });

  it("never suspends the caller, and a user cannot lift their own suspension", async () => {
    const own = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${adminId()}/suspension`, { suspended: true }));
    expect(own.status).toBe(400);
    expect(own.message).toBe("You cannot suspend your own account.");
    const bad = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${adminId()}/suspension`, { suspended: "yes" }));
    expect(bad.status).toBe(400);
    expect((await userRow(adminId()))["suspended"]).toBe(false);

    const target = await customer(shop);
    expect(await statusOf(() => target.pb.collection("users").update(target.id, { suspended: true }))).toBe(404);
    expect((await userRow(target.id))["suspended"]).toBe(false);
  });
});

describe("change e-mail", () => {
  it("sets the new address, tells the old one, and asks the new one to verify", async () => {
    const target = await customer(shop);
    const other = await customer(shop);
    const taken = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/email`, { email: other.email.toUpperCase() }));
    expect(taken.status).toBe(400);
    expect(fieldErrorsOf(taken)["email"]["message"]).toBe("Another account already uses this e-mail address.");
    const invalid = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/email`, { email: "not-an-address" }));
    expect(invalid.status).toBe(400);
    expect(fieldErrorsOf(invalid)["email"]["message"]).toBe("Enter a valid e-mail address.");

    const started = Date.now();
    const next = `moved-${target.email}`;
    const changed = await adminSend(shop.admin, `/api/admin/users/${target.id}/email`, { email: ` ${next} ` });
    expect(changed).toMatchObject({ id: target.id, email: next, verified: false });
    expect(await userRow(target.id)).toMatchObject({ email: next, verified: false });

    const notice = await waitForMail(shop.mailbox.sink, target.email, /e-mail address was changed/i, { after: started - 1000 });
    expect(notice.text).toContain(next);
    await waitForMail(shop.mailbox.sink, next, /verify/i, { after: started - 1000 });
    // They sign in with the new address.
    expect(await statusOf(() => signIn(shop.tpb, { email: next, password: target.password }))).toBe(200);

    const logs = await auditRowsOfTarget(shop, target.id);
    expect(logs.map((l) => l["action"])).toEqual(["users.email_change"]);
    expect(logs[0]!["details"]).toEqual({ email: { from: target.email, to: next }, verified: { from: true, to: false } });
  });
});

describe("mark verified and resend verification", () => {
  it("marks a user verified (with the welcome credit, once) and resends the mail only to the unverified", async () => {
    const target = await customer(shop, 0, { verified: false });
    const started = Date.now();
    await adminSend(shop.admin, `/api/admin/users/${target.id}/verification`, {});
    await waitForMail(shop.mailbox.sink, target.email, /verify/i, { after: started - 1000 });

    const verified = await adminSend(shop.admin, `/api/admin/users/${target.id}/verify`, {});
    expect(verified).toMatchObject({ id: target.id, verified: true });
    expect((await ledgerOf(shop, target.id)).rows.map((r) => r["reference"])).toEqual(["welcome"]);

    for (const tool of ["verify", "verification"]) {
      const again = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${target.id}/${tool}`, {}));
      expect(again.status, tool).toBe(400);
      expect(again.message, tool).toBe("This user's e-mail address is already verified.");
    }
    expect(await actionsOf(target.id)).toEqual([
      ["users.verification_resend", adminId(), "users"],
      ["users.verify", adminId(), "users"],
    ]);
  });
});

describe("delete on request", () => {
  it("erases the personal data and keeps the ledger and orders with the user anonymised", async () => {
    const { user, order } = await proxyBuyer(shop, { count: 1, cents: 5000, prefix: "D" });
    await post(user.pb, "/api/v1/support/tickets", { subject: "Delete me", message: "Please delete my account." }, null);
    await user.pb.send("/api/v1/affiliate/payout-method", { method: "PUT", body: { payout_method: "PayPal: me@paypal.test" } });
    const contactMessage = (email: string) =>
      shop.tpb.client().collection("contact_messages").create({
        name: "Dee Leet",
        email,
        subject: "About my account",
        message: "Please tell me what you store about me.",
        type: "general",
      });
    const theirs = await contactMessage(user.email.toUpperCase());
    const someoneElses = await contactMessage("someone.else@example.test");
    const ledgerBefore = await ledgerOf(shop, user.id);

    const wrong = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${user.id}/delete`, { confirm_email: "nope@x.test" }));
    expect(wrong.status).toBe(400);
    expect(wrong.message).toBe("Type the user's e-mail address to confirm.");

    const deleted = await adminSend(shop.admin, `/api/admin/users/${user.id}/delete`, { confirm_email: user.email });
    const anonymous = `deleted-${user.id}@deleted.invalid`;
    expect(deleted).toMatchObject({ id: user.id, email: anonymous, deleted: true, suspended: true });
    expect(await userRow(user.id)).toMatchObject({
      email: anonymous,
      first_name: "",
      last_name: "",
      country: "",
      // Still verified: the referral it was stays counted for the referrer.
      verified: true,
      suspended: true,
      deleted: true,
    });
    // Their payout method and the contact messages sent from their address are erased too.
    const affiliate = await shop.su.collection("affiliates").getFirstListItem(`user_id = "${user.id}"`);
    expect(affiliate["payout_method"]).toBe("");
    expect(await statusOf(() => shop.su.collection("contact_messages").getOne(theirs.id))).toBe(404);
    expect((await shop.su.collection("contact_messages").getOne(someoneElses.id))["email"]).toBe("someone.else@example.test");
    // Accounting keeps every ledger row and the order, still pointing at the (anonymous) user.
    expect((await ledgerOf(shop, user.id)).rows.map((r) => r.id)).toEqual(ledgerBefore.rows.map((r) => r.id));
    expect((await shop.su.collection("proxy_orders").getOne(order.id))["user_id"]).toBe(user.id);
    // Their support tickets (their own words) are gone.
    expect((await shop.su.collection("support_tickets").getList(1, 1, { filter: `user_id = "${user.id}"` })).totalItems).toBe(0);
    // Their session and their password are dead; the old address is free for a new account.
    expect(await statusOf(() => user.pb.send("/api/v1/credits/packages", {}))).toBe(401);
    expect(await statusOf(() => signIn(shop.tpb, user))).toBe(400);

    const logs = await auditRowsOfTarget(shop, user.id);
    expect(logs.map((l) => [l["action"], l["admin_id"], l["target_type"]]).at(-1)).toEqual(["users.erase", adminId(), "users"]);
    expect(JSON.stringify(logs.at(-1)!["details"])).not.toContain(user.email);
  });

  it("never deletes the caller or an admin", async () => {
    const me = (await userRow(adminId()))["email"] as string;
    const own = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${adminId()}/delete`, { confirm_email: me }));
    expect(own.status).toBe(400);
    expect(own.message).toBe("You cannot delete your own account.");
    const other = await createTestUser(shop.su, { is_admin: true });
    const err = await errorOf(() => adminSend(shop.admin, `/api/admin/users/${other.id}/delete`, { confirm_email: other.email }));
    expect(err.status).toBe(409);
    expect(err.message).toBe("Remove this user's admin rights before deleting the account.");
    expect((await userRow(other.id))["email"]).toBe(other.email);
  });
});
