import { describe, expect, it } from "vitest";
import {
  actionTitle,
  adminName,
  auditSentence,
  detailsJson,
  SENTENCES,
  shortId,
  showPager,
  targetDisplay,
  type AuditSentenceEntry,
} from "@/features/console-logs/format";

describe("audit log formats", () => {
  it("writes actions in title case", () => {
    expect(actionTitle("users.balance_credit")).toBe("Users Balance Credit");
    expect(actionTitle("referrals.pay")).toBe("Referrals Pay");
    expect(actionTitle("pricing_plans.update")).toBe("Pricing Plans Update");
    expect(actionTitle("")).toBe("");
  });

  it("formats details, ids and names", () => {
    expect(detailsJson({ amount_cents: 5 })).toBe('{\n  "amount_cents": 5\n}');
    expect(detailsJson({})).toBe("");
    expect(detailsJson(null)).toBe("");
    expect(shortId("abcdefghijklmno")).toBe("abcdefgh");
    expect(adminName("Ada", "")).toBe("Ada");
    expect(adminName("", "")).toBe("");
  });

  it("shows the pager when a page is full or past the first", () => {
    expect(showPager(1, 20, 20)).toBe(true);
    expect(showPager(1, 19, 20)).toBe(false);
    expect(showPager(2, 3, 20)).toBe(true);
  });
});

const base: AuditSentenceEntry = {
  action: "",
  target_type: "users",
  target_id: "6003fm1bxyzabcd",
  details: {},
  admin_email: "jane@example.com",
  admin_first_name: "Jane",
  admin_last_name: "Doe",
  target_label: "jo@example.com",
  target_name: "Jo Target",
  target_deleted: false,
};
const entry = (over: Partial<AuditSentenceEntry>): AuditSentenceEntry => ({ ...base, ...over });

describe("audit sentences", () => {
  it.each<[string, Partial<AuditSentenceEntry>, string]>([
    [
      "a credit",
      { action: "users.balance_credit", details: { amount_cents: 2500, description: "goodwill" } },
      "Admin Jane Doe credited $25.00 to jo@example.com: goodwill",
    ],
    [
      "a debit",
      { action: "users.balance_debit", details: { amount_cents: 34, description: "" } },
      "Admin Jane Doe debited $0.34 from jo@example.com",
    ],
    ["admin rights granted", { action: "users.admin_grant" }, "Admin Jane Doe granted admin rights to jo@example.com"],
    ["admin rights removed", { action: "users.admin_revoke" }, "Admin Jane Doe removed admin rights from jo@example.com"],
    [
      "a suspension",
      { action: "users.suspend", details: { reason: "chargebacks" } },
      "Admin Jane Doe suspended jo@example.com: chargebacks",
    ],
    ["an unsuspension", { action: "users.unsuspend" }, "Admin Jane Doe unsuspended jo@example.com"],
    [
      "an e-mail change",
      {
        action: "users.email_change",
        target_label: "new@example.com",
        details: { email: { from: "old@example.com", to: "new@example.com" } },
      },
      "Admin Jane Doe changed the e-mail of new@example.com from old@example.com to new@example.com",
    ],
    ["marked verified", { action: "users.verify" }, "Admin Jane Doe marked jo@example.com as verified"],
    ["verification resent", { action: "users.resend_verification" }, "Admin Jane Doe resent the verification e-mail to jo@example.com"],
    [
      "verification resent (console)",
      { action: "users.verification_resend" },
      "Admin Jane Doe resent the verification e-mail to jo@example.com",
    ],
    [
      "an account erased on request",
      { action: "users.erase", target_label: "", details: { email: "jo@example.com", reason: "Deleted on request" } },
      "Admin Jane Doe erased the account jo@example.com: Deleted on request",
    ],
    [
      "a deleted user",
      { action: "users.delete", target_label: "", target_deleted: true, details: { email: "jo@example.com" } },
      "Admin Jane Doe deleted the account jo@example.com (6003fm1b (deleted))",
    ],
    [
      "settings changed on the settings page",
      {
        action: "settings.update",
        target_type: "settings",
        target_id: "",
        target_label: "",
        details: { changes: { site_name: { from: "A", to: "B" } } },
      },
      'Admin Jane Doe changed setting site_name from "A" to "B"',
    ],
    [
      "a settings row",
      {
        action: "settings.update",
        target_type: "settings",
        target_label: "site_name",
        details: { changes: { value: { from: "A", to: "B" } } },
      },
      'Admin Jane Doe changed setting site_name from "A" to "B"',
    ],
    [
      "a staff reply",
      { action: "chat_messages.reply", target_type: "chat_messages", target_label: "Router down", details: { message: "On it." } },
      'Admin Jane Doe replied to ticket "Router down": "On it."',
    ],
    [
      "a ticket status",
      {
        action: "support_tickets.update",
        target_type: "support_tickets",
        target_label: "Router down",
        details: { changes: { status: { from: "open", to: "closed" } } },
      },
      'Admin Jane Doe updated ticket "Router down": status from "open" to "closed"',
    ],
    [
      "generated proxies",
      {
        action: "proxies.generate",
        target_id: "",
        target_label: "",
        details: { count: 1, type: "HTTP", country: "US", state: "Texas", city: "" },
      },
      "Admin Jane Doe generated 1 HTTP proxy in Texas, US",
    ],
    [
      "a deleted plan",
      { action: "pricing_plans.delete", target_label: "", target_deleted: true },
      "Admin Jane Doe deleted plan 6003fm1b (deleted)",
    ],
    [
      "a sign-in",
      { action: "admin.sign_in", details: { ip: "203.0.113.9", user_agent: "Firefox" } },
      "Admin Jane Doe signed in from 203.0.113.9 (Firefox)",
    ],
    [
      "a refused customer",
      {
        action: "admin.refused",
        admin_email: "",
        admin_first_name: "",
        admin_last_name: "",
        details: { method: "GET", route: "/api/admin/users" },
      },
      "jo@example.com (not an administrator) was refused GET /api/admin/users",
    ],
    [
      "an unknown action",
      { action: "widgets.polish", target_type: "widgets", target_label: "" },
      'Admin Jane Doe did "Widgets Polish" on widgets 6003fm1b',
    ],
    [
      "a deleted admin",
      { action: "users.admin_grant", admin_email: "", admin_first_name: "", admin_last_name: "" },
      "A deleted administrator granted admin rights to jo@example.com",
    ],
  ])("%s", (_name, over, sentence) => {
    expect(auditSentence(entry(over))).toBe(sentence);
  });

  it("shows the target by name and e-mail, or its id marked deleted", () => {
    expect(targetDisplay(base)).toBe("Jo Target · jo@example.com");
    expect(targetDisplay({ ...base, target_name: "", target_label: "proxy.test:8080" })).toBe("proxy.test:8080");
    expect(targetDisplay({ ...base, target_label: "", target_deleted: true })).toBe("6003fm1b (deleted)");
    expect(targetDisplay({ ...base, target_id: "", target_label: "", target_name: "" })).toBe("");
  });

  it("has a sentence for every action the server writes", () => {
    for (const action of [
      "users.balance_credit",
      "proxy_orders.refund",
      "referrals.pay",
      "invitations.create",
      "proxies.import",
      "admin.refused",
    ]) {
      expect(SENTENCES[action], action).toBeTypeOf("function");
    }
  });
});
