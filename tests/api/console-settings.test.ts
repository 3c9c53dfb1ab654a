// Console System Settings, demo mode and shop.admin invitations (pb_hooks/console-settings.pb.js):
// who may call each route, the spec's validation messages, one audit row per change,
// demo mode refusing every console write until a superuser switches it off, and invitation
// links that work once, for one e-mail when they name one, only while registration is on.
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import type { ConsoleSettings, InvitationPage } from "@/features/console-settings/api";
import { beforeAll, describe, expect, it } from "vitest";
import { adminGet, adminSend, auditRows as auditRowsOf, setSetting as setSettingOf } from "../support/admin.ts";
import { errorOf, startTestPocketBase, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { adminInvitationCases, invitationCalls } from "./cases/admin-invitations.ts";

const shop = useShop({ env: { SHOP_APP_URL: "https://shop.example.test" }, ledger: false });
let buyer: Customer;

beforeAll(async () => {
  buyer = await customer(shop);
});

const adminId = () => shop.admin.authStore.record?.id ?? "";

async function settingRows(): Promise<Record<string, string>> {
  const rows = await shop.su.collection("settings").getFullList({ fields: "key,value" });
  return Object.fromEntries(rows.map((r) => [r["key"] as string, r["value"] as string]));
}

const setSetting = (key: string, value: string) => setSettingOf(shop.su, key, value);

/** Audit rows of `action`, newest first. */
const auditRows = (action: string) => auditRowsOf(shop.su, shop.su.filter("action = {:action}", { action }), "-created,-id");

function currentSettings(): Promise<ConsoleSettings> {
  return adminGet<ConsoleSettings>(shop.admin, "/api/admin/settings");
}

function putSettings(pb: PocketBase, body: unknown): Promise<ConsoleSettings> {
  return adminSend<ConsoleSettings>(pb, "/api/admin/settings", body, "PUT");
}

/** The shop.admin balance route, with the Idempotency-Key money routes take. */
function creditBuyer(pb: PocketBase, amount_cents: number, description: string) {
  return pb.send<{ balance_cents: number }>(`/api/admin/users/${buyer.id}/balance`, {
    method: "POST",
    body: { transaction_type: "CREDIT", amount_cents, description },
    headers: { "Idempotency-Key": randomUUID() },
  });
}

const { tokenOf, invite, register } = invitationCalls(shop);

describe("GET/PUT /api/admin/settings", () => {
  it("is for admins: anonymous 401, customers 403 and nothing changes", async () => {
    const before = await settingRows();
    const body = { ...(await currentSettings()), site_name: "Hijacked" };
    expect(await statusOf(() => shop.tpb.client().send("/api/admin/settings", {}))).toBe(401);
    expect(await statusOf(() => buyer.pb.send("/api/admin/settings", {}))).toBe(403);
    expect(await statusOf(() => putSettings(shop.tpb.client(), body))).toBe(401);
    expect(await statusOf(() => putSettings(buyer.pb, body))).toBe(403);
    // A superuser is not a shop shop.admin: the console routes are for users with is_admin.
    expect(await statusOf(() => putSettings(shop.su, body))).toBe(403);
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
    const saved = await putSettings(shop.admin, {
      ...before,
      site_name: "  Admin Proxies  ",
      primary_color: "#a1b",
      welcome_credit_cents: 250,
    });
    expect(saved).toMatchObject({ site_name: "Admin Proxies", primary_color: "#AA11BB", welcome_credit_cents: 250 });
    const rows = await settingRows();
    expect(rows).toMatchObject({ site_name: "Admin Proxies", primary_color: "#AA11BB", welcome_credit_cents: "250" });
    // The public read (anyone may list settings) sees the new name.
    const publicRow = await shop.tpb.client().collection("settings").getFirstListItem('key = "site_name"');
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
    await putSettings(shop.admin, saved);
    expect(await auditRows("settings.update")).toHaveLength(auditBefore + 1);

    // Optional keys left out keep their value; booleans are stored as text.
    const { logo_url: _logo, contact_address: _address, welcome_credit_cents: _credit, ...required } = saved;
    const again = await putSettings(shop.admin, {
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
    await putSettings(shop.admin, before);
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
      const err = await errorOf(() => putSettings(shop.admin, { ...valid, ...change }));
      expect(err.status, field).toBe(400);
      expect(fieldErrorsOf(err)[field], JSON.stringify(change)).toMatchObject({ message: `${message}.` });
      expect(err.response["message"]).toBe(`${message}.`);
    }
    // Several bad fields at once: each gets its message.
    const err = await errorOf(() => putSettings(shop.admin, { ...valid, site_name: "", contact_email: "x", contact_phone: "" }));
    expect(err.response["message"]).toBe("Please check the highlighted fields.");
    expect(Object.keys(fieldErrorsOf(err)).sort()).toEqual(["contact_email", "contact_phone", "site_name"]);
    // A missing required key is refused like an empty one.
    const { site_description: _d, ...withoutDescription } = valid;
    expect((await errorOf(() => putSettings(shop.admin, withoutDescription))).response["data"]["site_description"]).toMatchObject({
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
    const pendingBefore = await invite(shop.admin); // made before demo mode: revoke and register are refused too
    const ticket = await buyer.pb.send<{ ticket: RecordModel }>("/api/v1/support/tickets", {
      method: "POST",
      body: { subject: "Demo mode question", message: "Is the console read-only now?", priority: "low" },
    });

    // Switched on through the console itself (allowed while it is off).
    await putSettings(shop.admin, { ...valid, admin_registration_enabled: true, demo_mode: true });
    expect((await settingRows())["demo_mode"]).toBe("true");
    const auditCount = (await shop.su.collection("audit_logs").getList(1, 1)).totalItems;
    const balanceBefore = (await shop.su.collection("balances").getFirstListItem(shop.su.filter("user_id = {:id}", { id: buyer.id })))[
      "balance_cents"
    ];

    try {
      const refusals: [string, () => Promise<unknown>][] = [
        ["settings", () => putSettings(shop.admin, { ...valid, demo_mode: false })],
        ["balance", () => creditBuyer(shop.admin, 100, "demo")],
        [
          "plan create",
          () =>
            shop.admin
              .collection("pricing_plans")
              .create({ name: "Demo plan", type: "HTTP", price_cents: 5, features: ["x"], active: true }),
        ],
        [
          "staff reply",
          () =>
            shop.admin
              .collection("chat_messages")
              .create({ ticket_id: ticket.ticket.id, sender_id: adminId(), message: "Staff reply in demo" }),
        ],
        ["invitation", () => invite(shop.admin)],
        ["revoke", () => adminSend(shop.admin, `/api/admin/invitations/${pendingBefore.id}`, {}, "DELETE")],
        ["register", () => register(tokenOf(pendingBefore))],
        [
          "settings row through the records API",
          async () => {
            const row = await shop.admin.collection("settings").getFirstListItem('key = "demo_mode"');
            return shop.admin.collection("settings").update(row.id, { value: "false" });
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
      expect((await shop.su.collection("audit_logs").getList(1, 1)).totalItems).toBe(auditCount);
      expect(
        (await shop.su.collection("balances").getFirstListItem(shop.su.filter("user_id = {:id}", { id: buyer.id })))["balance_cents"],
      ).toBe(balanceBefore);
      expect(await shop.su.collection("pricing_plans").getList(1, 1, { filter: 'name = "Demo plan"' })).toMatchObject({ totalItems: 0 });
      expect(
        await shop.su.collection("chat_messages").getList(1, 1, { filter: shop.su.filter("ticket_id = {:t}", { t: ticket.ticket.id }) }),
      ).toMatchObject({ totalItems: 1 });

      // Reads still work.
      expect((await currentSettings()).demo_mode).toBe(true);
      expect((await adminGet<InvitationPage>(shop.admin, "/api/admin/invitations")).items.map((i) => i.id)).toContain(pendingBefore.id);
      expect((await shop.admin.collection("audit_logs").getList(1, 1)).totalItems).toBeGreaterThan(0);
    } finally {
      // The off-switch: a superuser (PocketBase dashboard) sets the row back.
      await setSetting("demo_mode", "false");
    }
    const credited = await creditBuyer(shop.admin, 100, "after demo");
    expect(credited.balance_cents).toBe((balanceBefore as number) + 100);
    await adminSend(shop.admin, `/api/admin/invitations/${pendingBefore.id}`, {}, "DELETE");
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

adminInvitationCases(shop, () => buyer);
