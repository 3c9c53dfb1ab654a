// Console System Settings, demo mode and admin invitations (pb_hooks/console-settings.pb.js):
// who may call each route, the spec's validation messages, one audit row per change,
// demo mode refusing every console write until a superuser switches it off, and invitation
// links that work once, for one e-mail when they name one, only while registration is on.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminGet, adminSend } from "../support/admin.ts";
import { errorOf, statusOf, type TestPocketBase, startTestPocketBase } from "../support/pocketbase.ts";
import { customer, shopClients, type Customer, type Shop } from "../support/shop.ts";

interface Settings {
  site_name: string;
  site_description: string;
  primary_color: string;
  logo_url: string;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
  default_support_name: string;
  admin_registration_enabled: boolean;
  demo_mode: boolean;
  welcome_credit_cents: number;
}

interface Invitation {
  id: string;
  url: string;
  email: string | null;
  expires_at: string;
}

interface InvitationList {
  items: { id: string; email: string; expires_at: string; created: string; created_by: { id: string; email: string } | null }[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

const STRONG = "Invited#Admin2026";

let tpb: TestPocketBase;
let shop: Shop;
let su: PocketBase;
let admin: PocketBase;
let buyer: Customer;
let seq = 0;

beforeAll(async () => {
  tpb = await startTestPocketBase({ SHOP_APP_URL: "https://shop.example.test" });
  shop = await shopClients(tpb);
  ({ su, admin } = shop);
  buyer = await customer(shop);
});

afterAll(async () => {
  await tpb?.stop();
});

const adminId = () => admin.authStore.record?.id ?? "";

async function settingRows(): Promise<Record<string, string>> {
  const rows = await su.collection("settings").getFullList({ fields: "key,value" });
  return Object.fromEntries(rows.map((r) => [r["key"] as string, r["value"] as string]));
}

async function setSetting(key: string, value: string): Promise<void> {
  const row = await su.collection("settings").getFirstListItem(su.filter("key = {:key}", { key }));
  await su.collection("settings").update(row.id, { value });
}

/** Audit rows of `action`, newest first. */
async function auditRows(action: string): Promise<RecordModel[]> {
  return su.collection("audit_logs").getFullList({ filter: su.filter("action = {:action}", { action }), sort: "-created,-id" });
}

function currentSettings(): Promise<Settings> {
  return adminGet<Settings>(admin, "/api/admin/settings");
}

function putSettings(pb: PocketBase, body: unknown): Promise<Settings> {
  return adminSend<Settings>(pb, "/api/admin/settings", body, "PUT");
}

/** The admin balance route, with the Idempotency-Key money routes take. */
function creditBuyer(pb: PocketBase, amount_cents: number, description: string) {
  return pb.send<{ balance_cents: number }>(`/api/admin/users/${buyer.id}/balance`, {
    method: "POST",
    body: { transaction_type: "CREDIT", amount_cents, description },
    headers: { "Idempotency-Key": randomUUID() },
  });
}

function tokenOf(invitation: Invitation): string {
  return new URL(invitation.url).searchParams.get("token") ?? "";
}

function invite(pb: PocketBase, body: Record<string, unknown> = {}): Promise<Invitation> {
  return adminSend<Invitation>(pb, "/api/admin/invitations", body);
}

function register(token: string, fields: Partial<Record<"first_name" | "last_name" | "email" | "password", string>> = {}) {
  return tpb.client().send<{ token: string; record: RecordModel }>("/api/shop/admin-register", {
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
  return tpb.client().send<{ valid: boolean; email: string | null; expires_at: string }>("/api/shop/admin-invitations/check", {
    method: "POST",
    body: { token },
  });
}

describe("GET/PUT /api/admin/settings", () => {
  it("is for admins: anonymous 401, customers 403 and nothing changes", async () => {
    const before = await settingRows();
    const body = { ...(await currentSettings()), site_name: "Hijacked" };
    expect(await statusOf(() => tpb.client().send("/api/admin/settings", {}))).toBe(401);
    expect(await statusOf(() => buyer.pb.send("/api/admin/settings", {}))).toBe(403);
    expect(await statusOf(() => putSettings(tpb.client(), body))).toBe(401);
    expect(await statusOf(() => putSettings(buyer.pb, body))).toBe(403);
    // A superuser is not a shop admin: the console routes are for users with is_admin.
    expect(await statusOf(() => putSettings(su, body))).toBe(403);
    expect(await settingRows()).toEqual(before);
  });

  it("reads the stored settings as typed values", async () => {
    const settings = await currentSettings();
    expect(settings).toMatchObject({
      site_name: "ProxyShop",
      primary_color: "#3B82F6",
      default_support_name: "Support Team",
      admin_registration_enabled: false,
      demo_mode: false,
      welcome_credit_cents: 500,
    });
  });

  it("saves only the changed keys, with one audit row listing them, and the public rows follow", async () => {
    const before = await currentSettings();
    const auditBefore = (await auditRows("settings.update")).length;
    const saved = await putSettings(admin, {
      ...before,
      site_name: "  Admin Proxies  ",
      primary_color: "#a1b",
      welcome_credit_cents: 250,
    });
    expect(saved).toMatchObject({ site_name: "Admin Proxies", primary_color: "#AA11BB", welcome_credit_cents: 250 });
    const rows = await settingRows();
    expect(rows).toMatchObject({ site_name: "Admin Proxies", primary_color: "#AA11BB", welcome_credit_cents: "250" });
    // The public read (anyone may list settings) sees the new name.
    const publicRow = await tpb.client().collection("settings").getFirstListItem('key = "site_name"');
    expect(publicRow["value"]).toBe("Admin Proxies");

    const audit = await auditRows("settings.update");
    expect(audit).toHaveLength(auditBefore + 1);
    expect(audit[0]).toMatchObject({ admin_id: adminId(), target_type: "settings" });
    expect(audit[0]?.["details"]).toEqual({
      changes: {
        site_name: { from: "ProxyShop", to: "Admin Proxies" },
        primary_color: { from: "#3B82F6", to: "#AA11BB" },
        welcome_credit_cents: { from: "500", to: "250" },
      },
    });

    // Saving the same values again changes nothing and logs nothing.
    await putSettings(admin, saved);
    expect(await auditRows("settings.update")).toHaveLength(auditBefore + 1);

    // Optional keys left out keep their value; booleans are stored as text.
    const { logo_url: _logo, contact_address: _address, welcome_credit_cents: _credit, ...required } = saved;
    const again = await putSettings(admin, {
      ...required,
      site_name: before.site_name,
      primary_color: before.primary_color,
      admin_registration_enabled: true,
    });
    expect(again).toMatchObject({ welcome_credit_cents: 250, contact_address: before.contact_address, admin_registration_enabled: true });
    expect((await settingRows())["admin_registration_enabled"]).toBe("true");
    expect((await auditRows("settings.update"))[0]?.["details"]).toEqual({
      changes: {
        site_name: { from: "Admin Proxies", to: "ProxyShop" },
        primary_color: { from: "#AA11BB", to: "#3B82F6" },
        admin_registration_enabled: { from: "false", to: "true" },
      },
    });
    await putSettings(admin, before);
  });

  it("refuses bad input with the spec's message under each field, and changes nothing", async () => {
    const valid = await currentSettings();
    const before = await settingRows();
    const auditBefore = (await auditRows("settings.update")).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ site_name: "   " }, "site_name", "Site name is required"],
      [{ site_description: "" }, "site_description", "Site description is required"],
      [{ primary_color: "" }, "primary_color", "Primary color is required"],
      [{ primary_color: "blue" }, "primary_color", "Primary color must be a hex color like #3B82F6"],
      [{ contact_email: "" }, "contact_email", "Valid email is required"],
      [{ contact_email: "not-an-email" }, "contact_email", "Valid email is required"],
      [{ contact_phone: "" }, "contact_phone", "Phone number is required"],
      [{ contact_phone: "call us" }, "contact_phone", "Enter a phone number like +1 (555) 010-0199"],
      [{ default_support_name: "" }, "default_support_name", "Support name is required"],
      [{ site_name: "x".repeat(101) }, "site_name", "Site name must be at most 100 characters"],
      [{ logo_url: "javascript:alert(1)" }, "logo_url", "Logo URL must start with https:// or / (a file on this site)"],
      [{ welcome_credit_cents: 10001 }, "welcome_credit_cents", "Welcome credit must be a whole number of cents from 0 to 10000 ($100)"],
      [{ welcome_credit_cents: 2.5 }, "welcome_credit_cents", "Welcome credit must be a whole number of cents from 0 to 10000 ($100)"],
      [{ demo_mode: "true" }, "demo_mode", "Demo mode must be on or off"],
      [{ admin_registration_enabled: undefined }, "admin_registration_enabled", "Admin registration must be on or off"],
      [{ site_name: 42 }, "site_name", "Site name must be text"],
      [{ secret_key: "x" }, "secret_key", 'Unknown setting "secret_key"'],
    ];
    for (const [change, field, message] of cases) {
      const err = await errorOf(() => putSettings(admin, { ...valid, ...change }));
      expect(err.status, field).toBe(400);
      expect(err.response["data"][field], JSON.stringify(change)).toMatchObject({ message: `${message}.` });
      expect(err.response["message"]).toBe(`${message}.`);
    }
    // Several bad fields at once: each gets its message.
    const err = await errorOf(() => putSettings(admin, { ...valid, site_name: "", contact_email: "x", contact_phone: "" }));
    expect(err.response["message"]).toBe("Please check the highlighted fields.");
    expect(Object.keys(err.response["data"]).sort()).toEqual(["contact_email", "contact_phone", "site_name"]);
    // A missing required key is refused like an empty one.
    const { site_description: _d, ...withoutDescription } = valid;
    expect((await errorOf(() => putSettings(admin, withoutDescription))).response["data"]["site_description"]).toMatchObject({
      message: "Site description is required.",
    });

    expect(await settingRows()).toEqual(before);
    expect(await auditRows("settings.update")).toHaveLength(auditBefore);
  });
});

describe("demo mode", () => {
  it("refuses every console write with its message while reads keep working, and a superuser switches it off", async () => {
    const DEMO = "Demo mode is on: the console is read-only and changes are not saved.";
    const valid = await currentSettings();
    await setSetting("admin_registration_enabled", "true");
    const pendingBefore = await invite(admin); // made before demo mode: revoke and register are refused too
    const ticket = await buyer.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Demo mode question", message: "Is the console read-only now?", priority: "low" },
    });

    // Switched on through the console itself (allowed while it is off).
    await putSettings(admin, { ...valid, admin_registration_enabled: true, demo_mode: true });
    expect((await settingRows())["demo_mode"]).toBe("true");
    const auditCount = (await su.collection("audit_logs").getList(1, 1)).totalItems;
    const balanceBefore = (await su.collection("balances").getFirstListItem(su.filter("user_id = {:id}", { id: buyer.id })))[
      "balance_cents"
    ];

    try {
      const refusals: [string, () => Promise<unknown>][] = [
        ["settings", () => putSettings(admin, { ...valid, demo_mode: false })],
        ["balance", () => creditBuyer(admin, 100, "demo")],
        [
          "plan create",
          () =>
            admin.collection("pricing_plans").create({ name: "Demo plan", type: "HTTP", price_cents: 5, features: ["x"], active: true }),
        ],
        [
          "staff reply",
          () =>
            admin.collection("chat_messages").create({ ticket_id: ticket.ticket.id, sender_id: adminId(), message: "Staff reply in demo" }),
        ],
        ["invitation", () => invite(admin)],
        ["revoke", () => adminSend(admin, `/api/admin/invitations/${pendingBefore.id}`, {}, "DELETE")],
        ["register", () => register(tokenOf(pendingBefore))],
        [
          "settings row through the records API",
          async () => {
            const row = await admin.collection("settings").getFirstListItem('key = "demo_mode"');
            return admin.collection("settings").update(row.id, { value: "false" });
          },
        ],
      ];
      for (const [name, run] of refusals) {
        const err = await errorOf(run);
        expect(err.status, name).toBe(403);
        expect(err.response["message"], name).toBe(DEMO);
      }
      // Nothing changed.
      expect((await settingRows())["demo_mode"]).toBe("true");
      expect((await su.collection("audit_logs").getList(1, 1)).totalItems).toBe(auditCount);
      expect((await su.collection("balances").getFirstListItem(su.filter("user_id = {:id}", { id: buyer.id })))["balance_cents"]).toBe(
        balanceBefore,
      );
      expect(await su.collection("pricing_plans").getList(1, 1, { filter: 'name = "Demo plan"' })).toMatchObject({ totalItems: 0 });
      expect(
        await su.collection("chat_messages").getList(1, 1, { filter: su.filter("ticket_id = {:t}", { t: ticket.ticket.id }) }),
      ).toMatchObject({ totalItems: 1 });

      // Reads still work.
      expect((await currentSettings()).demo_mode).toBe(true);
      expect((await adminGet<InvitationList>(admin, "/api/admin/invitations")).items.map((i) => i.id)).toContain(pendingBefore.id);
      expect((await admin.collection("audit_logs").getList(1, 1)).totalItems).toBeGreaterThan(0);
    } finally {
      // The off-switch: a superuser (PocketBase dashboard) sets the row back.
      await setSetting("demo_mode", "false");
    }
    const credited = await creditBuyer(admin, 100, "after demo");
    expect(credited.balance_cents).toBe((balanceBefore as number) + 100);
    await adminSend(admin, `/api/admin/invitations/${pendingBefore.id}`, {}, "DELETE");
    await setSetting("admin_registration_enabled", "false");
  });

  it("SHOP_DEMO_MODE pins the setting on start; a bad value stops the start", async () => {
    const demo = await startTestPocketBase({ SHOP_DEMO_MODE: "true" });
    try {
      const rows = await demo.client().collection("settings").getFullList({ filter: 'key = "demo_mode"' });
      expect(rows.map((r) => r["value"])).toEqual(["true"]);
    } finally {
      await demo.stop();
    }
    await expect(startTestPocketBase({ SHOP_DEMO_MODE: "maybe" })).rejects.toThrow();
  });
});

describe("admin invitations", () => {
  beforeEach(async () => {
    await setSetting("admin_registration_enabled", "true");
  });

  it("are for admins: anonymous 401, customers 403, and nothing is created", async () => {
    const created = await invite(admin);
    const before = await su.collection("admin_invitations").getFullList();
    expect(await statusOf(() => invite(tpb.client()))).toBe(401);
    expect(await statusOf(() => invite(buyer.pb))).toBe(403);
    expect(await statusOf(() => tpb.client().send("/api/admin/invitations", {}))).toBe(401);
    expect(await statusOf(() => buyer.pb.send("/api/admin/invitations", {}))).toBe(403);
    expect(await statusOf(() => adminSend(tpb.client(), `/api/admin/invitations/${created.id}`, {}, "DELETE"))).toBe(401);
    expect(await statusOf(() => adminSend(buyer.pb, `/api/admin/invitations/${created.id}`, {}, "DELETE"))).toBe(403);
    expect(await su.collection("admin_invitations").getFullList()).toEqual(before);
    // Nobody reads or writes them through the records API but superusers.
    expect(await statusOf(() => admin.collection("admin_invitations").getList())).toBe(403);
    expect(await statusOf(() => admin.collection("admin_invitations").create({ email: "x@y.z" }))).toBe(403);
  });

  it("are created only while registration is on, hold only the token's hash, and are audited", async () => {
    await setSetting("admin_registration_enabled", "false");
    const count = (await su.collection("admin_invitations").getList(1, 1)).totalItems;
    const refused = await errorOf(() => invite(admin));
    expect(refused.status).toBe(409);
    expect(refused.response["message"]).toMatch(/Admin registration is turned off/);
    expect((await su.collection("admin_invitations").getList(1, 1)).totalItems).toBe(count);
    await setSetting("admin_registration_enabled", "true");

    const made = await invite(admin, { email: "  Named.Invitee@API.test " });
    expect(made.url).toMatch(/^https:\/\/shop\.example\.test\/console\/register\?token=[A-Za-z0-9]{43}$/);
    expect(made.email).toBe("named.invitee@api.test");
    const hours = (new Date(made.expires_at.replace(" ", "T")).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const row = await su.collection("admin_invitations").getOne(made.id);
    expect(row).toMatchObject({ created_by: adminId(), email: "named.invitee@api.test", used_at: "", revoked_at: "" });
    expect(JSON.stringify(row)).not.toContain(tokenOf(made));

    const [audit] = await auditRows("invitations.create");
    expect(audit).toMatchObject({ admin_id: adminId(), target_type: "admin_invitations", target_id: made.id });
    expect(audit?.["details"]).toEqual({ email: "named.invitee@api.test", expires_at: made.expires_at });
    expect(JSON.stringify(audit)).not.toContain(tokenOf(made));

    const list = await adminGet<InvitationList>(admin, "/api/admin/invitations", { perPage: 100 });
    const listed = list.items.find((i) => i.id === made.id);
    expect(listed).toMatchObject({ email: "named.invitee@api.test", expires_at: made.expires_at, created_by: { id: adminId() } });
    expect(JSON.stringify(list)).not.toContain(tokenOf(made));
    expect(list).toMatchObject({ page: 1, perPage: 100 });
    expect(list.totalItems).toBe(list.items.length);
  });

  it("refuse an e-mail that is malformed or already has an account", async () => {
    expect((await errorOf(() => invite(admin, { email: "nope" }))).response["data"]["email"]).toMatchObject({
      message: "Enter a valid email address, or leave it empty.",
    });
    const taken = await errorOf(() => invite(admin, { email: buyer.email.toUpperCase() }));
    expect(taken.status).toBe(400);
    expect(taken.response["data"]["email"]["message"]).toMatch(/already exists/);
    expect((await errorOf(() => invite(admin, { role: "owner" }))).status).toBe(400);
  });

  it("can be revoked once, audited, and a revoked link no longer works", async () => {
    const made = await invite(admin);
    const revoked = await adminSend<{ id: string; revoked_at: string }>(admin, `/api/admin/invitations/${made.id}`, {}, "DELETE");
    expect(revoked.id).toBe(made.id);
    expect(revoked.revoked_at).not.toBe("");
    const [audit] = await auditRows("invitations.revoke");
    expect(audit).toMatchObject({ admin_id: adminId(), target_type: "admin_invitations", target_id: made.id });
    expect(audit?.["details"]).toMatchObject({ email: null, created_by: adminId(), expires_at: made.expires_at });

    const again = await errorOf(() => adminSend(admin, `/api/admin/invitations/${made.id}`, {}, "DELETE"));
    expect(again.status).toBe(409);
    expect((await errorOf(() => adminSend(admin, "/api/admin/invitations/nosuchinvite000", {}, "DELETE"))).status).toBe(404);

    const list = await adminGet<InvitationList>(admin, "/api/admin/invitations", { perPage: 100 });
    expect(list.items.map((i) => i.id)).not.toContain(made.id);
    const checked = await errorOf(() => check(tokenOf(made)));
    expect(checked.status).toBe(410);
    expect(checked.response["message"]).toBe("This invitation link was revoked. Ask an administrator for a new one.");
    expect((await errorOf(() => register(tokenOf(made)))).status).toBe(410);
  });

  it("register a verified, onboarded admin who is signed in and can use the console; the link then is spent", async () => {
    const made = await invite(admin, { email: "chosen.one@api.test" });
    expect(await check(tokenOf(made))).toEqual({ valid: true, email: "chosen.one@api.test", expires_at: made.expires_at });

    const wrongEmail = await errorOf(() => register(tokenOf(made), { email: "someone.else@api.test" }));
    expect(wrongEmail.status).toBe(400);
    expect(wrongEmail.response["data"]["email"]["message"]).toBe("This invitation is for another email address.");

    const weak = await errorOf(() => register(tokenOf(made), { email: "chosen.one@api.test", password: "weakpass" }));
    expect(weak.status).toBe(400);
    expect(weak.response["data"]["password"]).toMatchObject({ code: "weak_password" });
    const shortName = await errorOf(() => register(tokenOf(made), { email: "chosen.one@api.test", first_name: "N" }));
    expect(shortName.response["data"]["first_name"]["message"]).toBe("First name must be at least 2 characters.");
    expect(await su.collection("users").getList(1, 1, { filter: 'email = "chosen.one@api.test"' })).toMatchObject({ totalItems: 0 });

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

    // The new admin signs in with the chosen password and calls an admin route.
    const newAdmin = tpb.client();
    await newAdmin.collection("users").authWithPassword("chosen.one@api.test", STRONG);
    const settings = await adminGet<Settings>(newAdmin, "/api/admin/settings");
    expect(settings.site_name).toBeTruthy();

    const row = await su.collection("admin_invitations").getOne(made.id);
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
    const made = await invite(admin);
    const results = await Promise.allSettled([register(tokenOf(made)), register(tokenOf(made)), register(tokenOf(made))]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect((r.reason as { status: number }).status).toBe(410);
    }
    const accepted = (await auditRows("invitations.accept")).filter((a) => a["target_id"] === made.id);
    expect(accepted).toHaveLength(1);
    const admins = await su.collection("users").getFullList({ filter: 'is_admin = true && first_name = "Nova"' });
    expect(admins.filter((u) => u.id === accepted[0]?.["admin_id"])).toHaveLength(1);
  });

  it("refuse unknown and expired links, an e-mail that has an account, and everything while registration is off", async () => {
    const unknown = await errorOf(() => check("x".repeat(43)));
    expect(unknown.status).toBe(404);
    expect(unknown.response["message"]).toBe("This invitation link is not valid. Ask an administrator for a new one.");
    expect((await errorOf(() => check(""))).status).toBe(404);
    expect((await errorOf(() => register("x".repeat(43)))).status).toBe(404);

    const made = await invite(admin);
    const taken = await errorOf(() => register(tokenOf(made), { email: buyer.email }));
    expect(taken.status).toBe(400);
    expect(taken.response["data"]["email"]["message"]).toBe("An account with this email already exists.");

    // Expired: a superuser may edit invitations in the dashboard (rules are null).
    await su.collection("admin_invitations").update(made.id, { expires_at: new Date(Date.now() - 60_000).toISOString() });
    const expired = await errorOf(() => check(tokenOf(made)));
    expect(expired.status).toBe(410);
    expect(expired.response["message"]).toBe("This invitation link has expired. Ask an administrator for a new one.");
    expect((await errorOf(() => register(tokenOf(made)))).status).toBe(410);
    expect((await adminGet<InvitationList>(admin, "/api/admin/invitations", { perPage: 100 })).items.map((i) => i.id)).not.toContain(
      made.id,
    );
    expect((await errorOf(() => adminSend(admin, `/api/admin/invitations/${made.id}`, {}, "DELETE"))).status).toBe(409);

    const live = await invite(admin);
    await setSetting("admin_registration_enabled", "false");
    const usersBefore = (await su.collection("users").getList(1, 1)).totalItems;
    for (const run of [() => check(tokenOf(live)), () => register(tokenOf(live))]) {
      const err = await errorOf(run);
      expect(err.status).toBe(403);
      expect(err.response["message"]).toBe("Admin registration is closed.");
    }
    expect((await su.collection("users").getList(1, 1)).totalItems).toBe(usersBefore);
    expect((await su.collection("admin_invitations").getOne(live.id))["used_at"]).toBe("");
  });
});
