// Admin invitations: the calls (shared with console-settings.test.ts's demo-mode cases) and
// the cases run in its shop: links that work once, for one e-mail when they name one, only
// while registration is on.
import type { ConsoleSettings, CreatedInvitation, InvitationPage } from "@/features/console-settings/api";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { beforeEach, describe, expect, it } from "vitest";
import { adminGet, adminSend, auditRows as auditRowsOf, setSetting as setSettingOf } from "../../support/admin.ts";
import { errorOf, statusOf, fieldErrorsOf } from "../../support/pocketbase.ts";
import type { Customer, Shop } from "../../support/shop.ts";
import type { ShopFixture } from "../../support/use-shop.ts";

const STRONG = "Invited#Admin2026";
let seq = 0;

export function invitationCalls(shop: Shop) {
  function tokenOf(invitation: CreatedInvitation): string {
    return new URL(invitation.url).searchParams.get("token") ?? "";
  }

  function invite(pb: PocketBase, body: Record<string, unknown> = {}): Promise<CreatedInvitation> {
    return adminSend<CreatedInvitation>(pb, "/api/admin/invitations", body);
  }

  function register(token: string, fields: Partial<Record<"first_name" | "last_name" | "email" | "password", string>> = {}) {
    return shop.tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/admin-register", {
      method: "POST",
      body: {
        token,
        first_name: "Nova",
        last_name: "Admin",
        email: `invitee-${Date.now()}-${seq++}@api.test`,
        password: STRONG,
        ...fields,
      },
    });
  }

  function check(token: string) {
    return shop.tpb.client().send<{ valid: boolean; email: string | null; expires_at: string }>("/api/shop/admin-invitations/check", {
      method: "POST",
      body: { token },
    });
  }

  return { tokenOf, invite, register, check };
}

export function adminInvitationCases(shop: ShopFixture, buyer: () => Customer): void {
  const { tokenOf, invite, register, check } = invitationCalls(shop);
  const adminId = () => shop.admin.authStore.record?.id ?? "";
  const setSetting = (key: string, value: string) => setSettingOf(shop.su, key, value);
  const auditRows = (action: string) => auditRowsOf(shop.su, shop.su.filter("action = {:action}", { action }), "-created,-id");

  describe("shop.admin invitations", () => {
    beforeEach(async () => {
      await setSetting("admin_registration_enabled", "true");
    });

    it("are for admins: anonymous 401, customers 403, and nothing is created", async () => {
      const created = await invite(shop.admin);
      const before = await shop.su.collection("admin_invitations").getFullList();
      expect(await statusOf(() => invite(shop.tpb.client()))).toBe(401);
      expect(await statusOf(() => invite(buyer().pb))).toBe(403);
      expect(await statusOf(() => shop.tpb.client().send("/api/admin/invitations", {}))).toBe(401);
      expect(await statusOf(() => buyer().pb.send("/api/admin/invitations", {}))).toBe(403);
      expect(await statusOf(() => adminSend(shop.tpb.client(), `/api/admin/invitations/${created.id}`, {}, "DELETE"))).toBe(401);
      expect(await statusOf(() => adminSend(buyer().pb, `/api/admin/invitations/${created.id}`, {}, "DELETE"))).toBe(403);
      expect(await shop.su.collection("admin_invitations").getFullList()).toEqual(before);
      // Nobody reads or writes them through the records API but superusers.
      expect(await statusOf(() => shop.admin.collection("admin_invitations").getList())).toBe(403);
      expect(await statusOf(() => shop.admin.collection("admin_invitations").create({ email: "x@y.z" }))).toBe(403);
    });

    it("are created only while registration is on, hold only the token's hash, and are audited", async () => {
      await setSetting("admin_registration_enabled", "false");
      const count = (await shop.su.collection("admin_invitations").getList(1, 1)).totalItems;
      const refused = await errorOf(() => invite(shop.admin));
      expect(refused.status).toBe(409);
      expect(refused.response["message"]).toMatch(/Admin registration is turned off/);
      expect((await shop.su.collection("admin_invitations").getList(1, 1)).totalItems).toBe(count);
      await setSetting("admin_registration_enabled", "true");

      const made = await invite(shop.admin, { email: "  Named.Invitee@API.test " });
      expect(made.url).toMatch(/^https:\/\/shop\.example\.test\/console\/register\?token=[A-Za-z0-9]{43}$/);
      expect(made.email).toBe("named.invitee@api.test");
      const hours = (new Date(made.expires_at.replace(" ", "T")).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);

      const row = await shop.su.collection("admin_invitations").getOne(made.id);
      expect(row).toMatchObject({ created_by: adminId(), email: "named.invitee@api.test", used_at: "", revoked_at: "" });
      expect(JSON.stringify(row)).not.toContain(tokenOf(made));

      const [audit] = await auditRows("invitations.create");
      expect(audit).toMatchObject({ admin_id: adminId(), target_type: "admin_invitations", target_id: made.id });
      expect(audit?.["details"]).toEqual({ email: "named.invitee@api.test", expires_at: made.expires_at });
      expect(JSON.stringify(audit)).not.toContain(tokenOf(made));

      const list = await adminGet<InvitationPage>(shop.admin, "/api/admin/invitations", { perPage: 100 });
      const listed = list.items.find((i) => i.id === made.id);
      expect(listed).toMatchObject({ email: "named.invitee@api.test", expires_at: made.expires_at, created_by: { id: adminId() } });
      expect(JSON.stringify(list)).not.toContain(tokenOf(made));
      expect(list).toMatchObject({ page: 1, perPage: 100 });
      expect(list.totalItems).toBe(list.items.length);
    });

    it("refuse an e-mail that is malformed or already has an account", async () => {
      expect((await errorOf(() => invite(shop.admin, { email: "nope" }))).response["data"]["email"]).toMatchObject({
        message: "Enter a valid email address, or leave it empty.",
      });
      const taken = await errorOf(() => invite(shop.admin, { email: buyer().email.toUpperCase() }));
      expect(taken.status).toBe(400);
      expect(fieldErrorsOf(taken)["email"]["message"]).toMatch(/already exists/);
      expect((await errorOf(() => invite(shop.admin, { role: "owner" }))).status).toBe(400);
    });

    it("can be revoked once, audited, and a revoked link no longer works", async () => {
      const made = await invite(shop.admin);
      const revoked = await adminSend<{ id: string; revoked_at: string }>(shop.admin, `/api/admin/invitations/${made.id}`, {}, "DELETE");
      expect(revoked.id).toBe(made.id);
      expect(revoked.revoked_at).not.toBe("");
      const [audit] = await auditRows("invitations.revoke");
      expect(audit).toMatchObject({ admin_id: adminId(), target_type: "admin_invitations", target_id: made.id });
      expect(audit?.["details"]).toMatchObject({ email: null, created_by: adminId(), expires_at: made.expires_at });

      const again = await errorOf(() => adminSend(shop.admin, `/api/admin/invitations/${made.id}`, {}, "DELETE"));
      expect(again.status).toBe(409);
      expect((await errorOf(() => adminSend(shop.admin, "/api/admin/invitations/nosuchinvite000", {}, "DELETE"))).status).toBe(404);

      const list = await adminGet<InvitationPage>(shop.admin, "/api/admin/invitations", { perPage: 100 });
      expect(list.items.map((i) => i.id)).not.toContain(made.id);
      const checked = await errorOf(() => check(tokenOf(made)));
      expect(checked.status).toBe(410);
      expect(checked.response["message"]).toBe("This invitation link was revoked. Ask an administrator for a new one.");
      expect((await errorOf(() => register(tokenOf(made)))).status).toBe(410);
    });

    it("register a verified, onboarded shop.admin who is signed in and can use the console; the link then is spent", async () => {
      const made = await invite(shop.admin, { email: "chosen.one@api.test" });
      expect(await check(tokenOf(made))).toEqual({ valid: true, email: "chosen.one@api.test", expires_at: made.expires_at });

      const wrongEmail = await errorOf(() => register(tokenOf(made), { email: "someone.else@api.test" }));
      expect(wrongEmail.status).toBe(400);
      expect(fieldErrorsOf(wrongEmail)["email"]["message"]).toBe("This invitation is for another email address.");

      const weak = await errorOf(() => register(tokenOf(made), { email: "chosen.one@api.test", password: "weakpass" }));
      expect(weak.status).toBe(400);
      expect(fieldErrorsOf(weak)["password"]).toMatchObject({ code: "weak_password" });
      const shortName = await errorOf(() => register(tokenOf(made), { email: "chosen.one@api.test", first_name: "N" }));
      expect(fieldErrorsOf(shortName)["first_name"]["message"]).toBe("First name must be at least 2 characters.");
      expect(await shop.su.collection("users").getList(1, 1, { filter: 'email = "chosen.one@api.test"' })).toMatchObject({ totalItems: 0 });

      const auth = await register(tokenOf(made), { email: "Chosen.One@api.test" });
      expect(auth.token).toBeTruthy();
      expect(auth.record).toMatchObject({
        email: "chosen.one@api.test",
        first_name: "Nova",
        last_name: "Admin",
        is_admin: true,
        verified: true,
        onboarding_completed: true,
        password_set: true,
      });

      // The new shop.admin signs in with the chosen password and calls an shop.admin route.
      const newAdmin = shop.tpb.client();
      await newAdmin.collection("users").authWithPassword("chosen.one@api.test", STRONG);
      const settings = await adminGet<ConsoleSettings>(newAdmin, "/api/admin/settings");
      expect(settings.site_name).toBeTruthy();

      const row = await shop.su.collection("admin_invitations").getOne(made.id);
      expect(row["used_at"]).not.toBe("");
      expect(row["used_by"]).toBe(auth.record.id);
      const [audit] = await auditRows("invitations.accept");
      expect(audit).toMatchObject({ admin_id: auth.record.id, target_type: "admin_invitations", target_id: made.id });
      expect(audit?.["details"]).toEqual({
        user_id: auth.record.id,
        email: "chosen.one@api.test",
        invited_by: adminId(),
        invitation_email: "chosen.one@api.test",
      });
      expect(JSON.stringify(audit)).not.toContain(STRONG);

      const spent = await errorOf(() => register(tokenOf(made), { email: "chosen.one@api.test" }));
      expect(spent.status).toBe(410);
      expect(spent.response["message"]).toBe("This invitation link has already been used.");
      expect((await errorOf(() => check(tokenOf(made)))).status).toBe(410);
    });

    it("work once even when two people register at the same moment", async () => {
      const made = await invite(shop.admin);
      const results = await Promise.allSettled([register(tokenOf(made)), register(tokenOf(made)), register(tokenOf(made))]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) {
        if (r.status === "rejected") expect((r.reason as { status: number }).status).toBe(410);
      }
      const accepted = (await auditRows("invitations.accept")).filter((a) => a["target_id"] === made.id);
      expect(accepted).toHaveLength(1);
      const admins = await shop.su.collection("users").getFullList({ filter: 'is_admin = true && first_name = "Nova"' });
      expect(admins.filter((u) => u.id === accepted[0]?.["admin_id"])).toHaveLength(1);
    });

    it("refuse unknown and expired links, an e-mail that has an account, and everything while registration is off", async () => {
      const unknown = await errorOf(() => check("x".repeat(43)));
      expect(unknown.status).toBe(404);
      expect(unknown.response["message"]).toBe("This invitation link is not valid. Ask an administrator for a new one.");
      expect((await errorOf(() => check(""))).status).toBe(404);
      expect((await errorOf(() => register("x".repeat(43)))).status).toBe(404);

      const made = await invite(shop.admin);
      const taken = await errorOf(() => register(tokenOf(made), { email: buyer().email }));
      expect(taken.status).toBe(400);
      expect(fieldErrorsOf(taken)["email"]["message"]).toBe("An account with this email already exists.");

      // Expired: a superuser may edit invitations in the dashboard (rules are null).
      await shop.su.collection("admin_invitations").update(made.id, { expires_at: new Date(Date.now() - 60_000).toISOString() });
      const expired = await errorOf(() => check(tokenOf(made)));
      expect(expired.status).toBe(410);
      expect(expired.response["message"]).toBe("This invitation link has expired. Ask an administrator for a new one.");
      expect((await errorOf(() => register(tokenOf(made)))).status).toBe(410);
      expect((await adminGet<InvitationPage>(shop.admin, "/api/admin/invitations", { perPage: 100 })).items.map((i) => i.id)).not.toContain(
        made.id,
      );
      expect((await errorOf(() => adminSend(shop.admin, `/api/admin/invitations/${made.id}`, {}, "DELETE"))).status).toBe(409);

      const live = await invite(shop.admin);
      await setSetting("admin_registration_enabled", "false");
      const usersBefore = (await shop.su.collection("users").getList(1, 1)).totalItems;
      for (const run of [() => check(tokenOf(live)), () => register(tokenOf(live))]) {
        const err = await errorOf(run);
        expect(err.status).toBe(403);
        expect(err.response["message"]).toBe("Admin registration is closed.");
      }
      expect((await shop.su.collection("users").getList(1, 1)).totalItems).toBe(usersBefore);
      expect((await shop.su.collection("admin_invitations").getOne(live.id))["used_at"]).toBe("");
    });
  });
}
