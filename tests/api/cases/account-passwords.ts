// Accounts' e-mailed codes, password links and password strength, run in accounts.test.ts's
// shop (with its SMTP sink).
import { describe, expect, it } from "vitest";
import { errorOf, fieldErrorsOf } from "../../support/pocketbase.ts";
import { codeFrom, linkFrom, waitForMail } from "../../support/smtp-sink.ts";
import type { TestMailbox } from "../../support/smtp-sink.ts";
import type { PocketBaseFixture } from "../../support/use-shop.ts";
import { APP_URL, type AccountKit } from "./accounts-kit.ts";

const FIRST_PASSWORD = "First#Pass1";

export function accountPasswordCases(shop: PocketBaseFixture & { mailbox: TestMailbox }, { email, signup }: AccountKit): void {
  /** A user the superuser makes with FIRST_PASSWORD. */
  const createWithPassword = (address: string, first_name: string, last_name: string) =>
    shop.su.collection("users").create({
      email: address,
      password: FIRST_PASSWORD,
      passwordConfirm: FIRST_PASSWORD,
      first_name,
      last_name,
      country: "Italy",
    });

  /** A client signed in as `address` with FIRST_PASSWORD. */
  async function signedIn(address: string) {
    const client = shop.tpb.client();
    await client.collection("users").authWithPassword(address, FIRST_PASSWORD);
    return client;
  }

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
      const created = await createWithPassword(address, "Pat", "Word");
      expect(created["password_set"]).toBe(true);
      const client = await signedIn(address);
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
      expect(fieldErrorsOf(wrong)["oldPassword"]).toBeTruthy();

      await client
        .collection("users")
        .update(created.id, { oldPassword: FIRST_PASSWORD, password: "Second#Pass2", passwordConfirm: "Second#Pass2" });
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
      const created = await createWithPassword(address, "Wea", "Kling");
      const client = await signedIn(address);
      const before = await shop.su.collection("users").getOne(created.id);

      const err = await errorOf(() =>
        client.collection("users").update(created.id, { oldPassword: FIRST_PASSWORD, password: weak, passwordConfirm: weak }),
      );
      expect(err.status).toBe(400);
      // PocketBase ends every message with a full stop.
      expect(err.response["message"]).toBe(`${message}.`);
      expect(fieldErrorsOf(err)["password"]).toEqual({ code: "weak_password", message: `${message}.` });

      // Nothing changed: the old password still signs in, the new one does not, and the session lives on.
      expect(await shop.su.collection("users").getOne(created.id)).toEqual(before);
      expect((await errorOf(() => shop.tpb.client().collection("users").authWithPassword(address, weak))).status).toBe(400);
      await shop.tpb.client().collection("users").authWithPassword(address, FIRST_PASSWORD);
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
      expect(fieldErrorsOf(err)["password"]).toEqual({ code: "weak_password", message: "Password must contain an uppercase letter." });
      expect((await errorOf(() => shop.tpb.client().collection("users").authWithPassword(address, "password1"))).status).toBe(400);
      const stored = await shop.su.collection("users").getFirstListItem(shop.su.filter("email = {:address}", { address }));
      expect(stored).toMatchObject({ password_set: false, verified: false });

      await client.collection("users").confirmPasswordReset(token, "Strong#Pass9", "Strong#Pass9");
      const auth = await shop.tpb.client().collection("users").authWithPassword(address, "Strong#Pass9");
      expect(auth.record).toMatchObject({ password_set: true, verified: true });
    });

    it("lets a superuser set any password (not client-chosen)", async () => {
      const address = email("supw");
      const created = await createWithPassword(address, "Sue", "Perr");
      await shop.su.collection("users").update(created.id, { password: "plainpassword", passwordConfirm: "plainpassword" });
      await shop.tpb.client().collection("users").authWithPassword(address, "plainpassword");
    });
  });
}
