// The console's support inbox, ticket status and staff replies, pricing plan rules and the
// contact inbox: who may do what, what the server enforces, and the one audit row per
// admin change (records-API writes are audited by audit.pb.js).
import type { RecordModel } from "pocketbase";
import type { AdminTicket, TicketPage } from "@/features/console-support/api";
import { describe, expect, it } from "vitest";
import { adminGet, withDemoMode } from "../support/admin.ts";
import { createTestUser, errorOf, signIn, statusOf, fieldErrorsOf } from "../support/pocketbase.ts";
import { customer, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";
import { contactInboxCases, pricingPlanCases } from "./cases/console-plans-contact.ts";
import { consoleSupportKit } from "./cases/console-support-kit.ts";

const shop = useShop({ ledger: false });
const kit = consoleSupportKit(shop);
const { adminId, tag, auditRows } = kit;

async function openTicket(c: Customer, subject: string, message = "Please help me with this problem.", priority = "high") {
  return c.pb.send<{ ticket: RecordModel; message: RecordModel }>("/api/v1/support/tickets", {
    method: "POST",
    body: { subject, message, priority },
  });
}

describe("GET /api/admin/support/tickets", () => {
  it("refuses anonymous (401) and customers (403)", async () => {
    const c = await customer(shop);
    const { ticket } = await openTicket(c, `Refusals ${tag()}`);
    expect(await statusOf(() => adminGet(shop.tpb.client(), "/api/admin/support/tickets"))).toBe(401);
    expect(await statusOf(() => adminGet(c.pb, "/api/admin/support/tickets"))).toBe(403);
    expect(await statusOf(() => adminGet(shop.tpb.client(), `/api/admin/support/tickets/${ticket.id}`))).toBe(401);
    expect(await statusOf(() => adminGet(c.pb, `/api/admin/support/tickets/${ticket.id}`))).toBe(403);
  });

  it("lists tickets with the customer, newest activity first, searched and filtered", async () => {
    const t = tag();
    const su2 = shop.su;
    const ada = await createTestUser(su2, { first_name: "Ada", last_name: `Lovelace${t}`, email: `ada-${t}@api.test` });
    const asAda = { ...ada, pb: await signIn(shop.tpb, ada) };
    const first = await openTicket(asAda, `Router question ${t}`);
    const second = await openTicket(asAda, `Billing question ${t}`);

    const all = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: t });
    expect(all.items.map((i) => i.id)).toEqual([second.ticket.id, first.ticket.id]);
    expect(all.totalItems).toBe(2);
    expect(all.items[0]).toMatchObject({
      subject: `Billing question ${t}`,
      status: "open",
      priority: "high",
      awaiting_reply: true,
      user_id: ada.id,
      user_email: ada.email,
      user_first_name: "Ada",
      user_last_name: `Lovelace${t}`,
    });
    expect(all.counts.all).toBeGreaterThanOrEqual(2);

    // A staff reply on the older ticket moves it to the top and answers it.
    await shop.admin.collection("chat_messages").create({ ticket_id: first.ticket.id, sender_id: adminId(), message: "On it." });
    const after = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: t });
    expect(after.items.map((i) => [i.id, i.awaiting_reply])).toEqual([
      [first.ticket.id, false],
      [second.ticket.id, true],
    ]);

    // Search: e-mail, full name, subject, ticket number; LIKE wildcards are plain text.
    for (const q of [ada.email, `Ada Lovelace${t}`, `billing question ${t}`]) {
      const found = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q });
      expect(found.items.map((i) => i.id)).toEqual(
        expect.arrayContaining(q.startsWith("billing") ? [second.ticket.id] : [first.ticket.id, second.ticket.id]),
      );
    }
    const byNumber = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: `#${second.ticket.id.slice(0, 8)}` });
    expect(byNumber.items.map((i) => i.id)).toContain(second.ticket.id);
    expect((await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: `%${t}` })).totalItems).toBe(0);

    // Status filter and paging.
    await shop.admin.collection("support_tickets").update(second.ticket.id, { status: "pending" });
    const pending = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: t, status: "pending" });
    expect(pending.items.map((i) => i.id)).toEqual([second.ticket.id]);
    const paged = await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: t, perPage: 1, page: 2 });
    expect(paged).toMatchObject({ page: 2, perPage: 1, totalItems: 2, totalPages: 2 });
    expect(paged.items.map((i) => i.id)).toEqual([second.ticket.id]);

    const bad = await errorOf(() => adminGet(shop.admin, "/api/admin/support/tickets", { status: "archived" }));
    expect(bad.status).toBe(400);
    expect(fieldErrorsOf(bad)).toMatchObject({ status: { message: "Status must be open, pending or closed." } });

    const one = await adminGet<AdminTicket>(shop.admin, `/api/admin/support/tickets/${first.ticket.id}`);
    expect(one).toMatchObject({ id: first.ticket.id, user_email: ada.email, status: "open" });
    expect(await statusOf(() => adminGet(shop.admin, "/api/admin/support/tickets/nosuchticket00"))).toBe(404);
  });

  it("filters by priority and sorts the most urgent first (issue #28, 17)", async () => {
    const t = tag();
    const c = await customer(shop);
    const low = await openTicket(c, `Low ${t}`, undefined, "low");
    const urgent = await openTicket(c, `Urgent ${t}`, undefined, "urgent");
    const medium = await openTicket(c, `Medium ${t}`, undefined, "medium");
    const high = await openTicket(c, `High ${t}`, undefined, "high");
    const ids = async (query: Record<string, string>) =>
      (await adminGet<TicketPage>(shop.admin, "/api/admin/support/tickets", { q: t, ...query })).items.map((i) => i.id);

    expect(await ids({})).toEqual([high, medium, urgent, low].map((x) => x.ticket.id));
    expect(await ids({ sort: "priority" })).toEqual([urgent, high, medium, low].map((x) => x.ticket.id));
    expect(await ids({ priority: "urgent" })).toEqual([urgent.ticket.id]);
    expect(await ids({ priority: "low", sort: "priority" })).toEqual([low.ticket.id]);

    for (const [name, value, message] of [
      ["priority", "critical", "Priority must be low, medium, high or urgent."],
      ["sort", "oldest", "Sort must be activity or priority."],
    ] as const) {
      const bad = await errorOf(() => adminGet(shop.admin, "/api/admin/support/tickets", { [name]: value }));
      expect(bad.status).toBe(400);
      expect(fieldErrorsOf(bad)).toMatchObject({ [name]: { message } });
    }
  });

  it("keeps last_message_at and awaiting_reply the server's", async () => {
    const c = await customer(shop);
    const { ticket } = await openTicket(c, `Server fields ${tag()}`);
    const before = await shop.su.collection("support_tickets").getOne(ticket.id);
    expect(before["last_message_at"]).not.toBe("");
    await shop.admin
      .collection("support_tickets")
      .update(ticket.id, { last_message_at: "2099-01-01 00:00:00.000Z", awaiting_reply: false, priority: "low" });
    const stored = await shop.su.collection("support_tickets").getOne(ticket.id);
    expect(stored).toMatchObject({ last_message_at: before["last_message_at"], awaiting_reply: true, priority: "low" });
    const own = await c.pb
      .collection("support_tickets")
      .create({ user_id: c.id, subject: "Pinned to the top", priority: "low", last_message_at: "2099-01-01 00:00:00.000Z" });
    expect(own["last_message_at"]).not.toContain("2099");
    expect(own["awaiting_reply"]).toBe(true);
  });
});

describe("ticket status and staff replies", () => {
  it("customers cannot change a status or read others' tickets and messages", async () => {
    const owner = await customer(shop);
    const other = await customer(shop);
    const { ticket, message } = await openTicket(owner, `Private ${tag()}`);

    expect(await statusOf(() => owner.pb.collection("support_tickets").update(ticket.id, { status: "closed" }))).toBe(404);
    expect(await statusOf(() => other.pb.collection("support_tickets").getOne(ticket.id))).toBe(404);
    expect(await statusOf(() => other.pb.collection("chat_messages").getOne(message.id))).toBe(404);
    expect((await other.pb.collection("chat_messages").getList(1, 50, { filter: `ticket_id = "${ticket.id}"` })).totalItems).toBe(0);
    expect((await other.pb.collection("support_tickets").getList(1, 50, { filter: `id = "${ticket.id}"` })).totalItems).toBe(0);
    expect(
      await statusOf(() => other.pb.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: other.id, message: "Sneaky" })),
    ).toBe(400);
    expect((await shop.su.collection("support_tickets").getOne(ticket.id))["status"]).toBe("open");
    expect(await auditRows(ticket.id)).toHaveLength(0);
  });

  it("an admin's status change leaves one audit row", async () => {
    const c = await customer(shop);
    const { ticket } = await openTicket(c, `Status change ${tag()}`);
    const updated = await shop.admin.collection("support_tickets").update(ticket.id, { status: "pending" });
    expect(updated["status"]).toBe("pending");
    const rows = await auditRows(ticket.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ admin_id: adminId(), action: "support_tickets.update", target_type: "support_tickets" });
    expect(rows[0]!["details"]).toEqual({ changes: { status: { from: "open", to: "pending" } } });
  });

  it("an admin reply is flagged is_admin_message, also on a closed ticket; the customer cannot write there", async () => {
    const c = await customer(shop);
    const { ticket } = await openTicket(c, `Staff reply ${tag()}`);
    const reply = await shop.admin
      .collection("chat_messages")
      .create({ ticket_id: ticket.id, sender_id: adminId(), message: "  We are on it.  ", is_admin_message: false });
    expect(reply).toMatchObject({ is_admin_message: true, sender_id: adminId(), message: "We are on it." });
    const forged = await c.pb
      .collection("chat_messages")
      .create({ ticket_id: ticket.id, sender_id: c.id, message: "Thanks!" })
      .catch(() => null);
    expect(forged?.["is_admin_message"]).toBe(false);

    await shop.admin.collection("support_tickets").update(ticket.id, { status: "closed" });
    expect(await statusOf(() => c.pb.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: c.id, message: "More" }))).toBe(
      400,
    );
    const closingNote = await shop.admin
      .collection("chat_messages")
      .create({ ticket_id: ticket.id, sender_id: adminId(), message: "Closing note: refunded." });
    expect(closingNote["is_admin_message"]).toBe(true);
    const seen = await c.pb.collection("chat_messages").getFullList({ filter: `ticket_id = "${ticket.id}"`, sort: "created" });
    expect(seen.map((m) => m["message"])).toContain("Closing note: refunded.");
  });

  it("demo mode refuses an admin's status change and reply, and nothing changes", async () => {
    const c = await customer(shop);
    const { ticket } = await openTicket(c, `Demo mode ${tag()}`);
    await withDemoMode(shop.su, async () => {
      const status = await errorOf(() => shop.admin.collection("support_tickets").update(ticket.id, { status: "closed" }));
      expect(status.status).toBe(403);
      expect(status.message).toContain("Demo mode is on");
      const reply = await errorOf(() =>
        shop.admin.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: adminId(), message: "Not saved" }),
      );
      expect(reply.status).toBe(403);
      // Reading still works.
      expect((await adminGet<AdminTicket>(shop.admin, `/api/admin/support/tickets/${ticket.id}`)).status).toBe("open");
    });
    expect((await shop.su.collection("support_tickets").getOne(ticket.id))["status"]).toBe("open");
    expect(await shop.su.collection("chat_messages").getFullList({ filter: `ticket_id = "${ticket.id}"` })).toHaveLength(1);
    expect(await auditRows(ticket.id)).toHaveLength(0);
  });
});

pricingPlanCases(shop, kit);
contactInboxCases(shop, kit);
