// Fields only the server may set on support tickets, chat messages and contact messages, run
// in privileged-fields.test.ts's shop with its cast.
import { describe, expect, it } from "vitest";
import type { Cast } from "../../support/cast.ts";
import { clientFrom, statusOf } from "../../support/pocketbase.ts";
import type { PocketBaseFixture } from "../../support/use-shop.ts";

export function supportFieldCases(pocketbase: PocketBaseFixture, cast: Cast): void {
  describe("support", () => {
    it("a customer cannot change a ticket's status, even on their own ticket", async () => {
      const ticket = await cast.asAlice
        .collection("support_tickets")
        .create({ user_id: cast.alice.id, subject: "Cannot connect", priority: "high", status: "open" });
      expect(await statusOf(() => cast.asAlice.collection("support_tickets").update(ticket.id, { status: "closed" }))).toBe(404);
      expect((await pocketbase.su.collection("support_tickets").getOne(ticket.id))["status"]).toBe("open");
    });

    it("a new ticket is open and owned by its author", async () => {
      for (const body of [
        { user_id: cast.alice.id, subject: "Closed already", priority: "low", status: "closed" },
        { user_id: cast.bob.id, subject: "On behalf of Bob", priority: "low", status: "open" },
      ]) {
        expect(await statusOf(() => cast.asAlice.collection("support_tickets").create(body))).toBe(400);
      }
      const ticket = await cast.asAlice
        .collection("support_tickets")
        .create({ user_id: cast.alice.id, subject: "  Default status  ", priority: "low" });
      expect(ticket).toMatchObject({ status: "open", user_id: cast.alice.id, subject: "Default status" });
    });

    it("ticket subjects need at least 5 characters", async () => {
      expect(
        await statusOf(() =>
          cast.asAlice.collection("support_tickets").create({ user_id: cast.alice.id, subject: "Hi", priority: "low", status: "open" }),
        ),
      ).toBe(400);
    });

    it("is_admin_message cannot be spoofed and follows the sender's is_admin", async () => {
      const ticket = await cast.asAlice
        .collection("support_tickets")
        .create({ user_id: cast.alice.id, subject: "Chat ticket", priority: "medium", status: "open" });
      expect(
        await statusOf(() =>
          cast.asAlice
            .collection("chat_messages")
            .create({ ticket_id: ticket.id, sender_id: cast.alice.id, message: "I am staff", is_admin_message: true }),
        ),
      ).toBe(400);
      expect(
        await statusOf(() =>
          cast.asAlice.collection("chat_messages").create({ ticket_id: ticket.id, sender_id: cast.admin.id, message: "I am the admin" }),
        ),
      ).toBe(400);

      const own = await cast.asAlice
        .collection("chat_messages")
        .create({ ticket_id: ticket.id, sender_id: cast.alice.id, message: "  Still broken  ", is_admin_message: false });
      expect(own).toMatchObject({ is_admin_message: false, sender_id: cast.alice.id, message: "Still broken" });

      const reply = await cast.asAdmin
        .collection("chat_messages")
        .create({ ticket_id: ticket.id, sender_id: cast.admin.id, message: "Looking into it", is_admin_message: false });
      expect(reply).toMatchObject({ is_admin_message: true, sender_id: cast.admin.id });
    });

    it("a customer cannot write on a closed ticket or on someone else's ticket", async () => {
      const closed = await pocketbase.su
        .collection("support_tickets")
        .create({ user_id: cast.alice.id, subject: "Closed ticket", priority: "low", status: "closed" });
      const bobs = await pocketbase.su
        .collection("support_tickets")
        .create({ user_id: cast.bob.id, subject: "Bob's ticket", priority: "low", status: "open" });
      for (const ticketId of [closed.id, bobs.id]) {
        expect(
          await statusOf(() =>
            cast.asAlice.collection("chat_messages").create({ ticket_id: ticketId, sender_id: cast.alice.id, message: "hello there" }),
          ),
        ).toBe(400);
      }
      expect(await pocketbase.su.collection("chat_messages").getFullList({ filter: 'message = "hello there"' })).toHaveLength(0);
    });
  });

  describe("contact messages", () => {
    it("stores trimmed values and the sender's IP, never an IP from the body", async () => {
      const pb = clientFrom(pocketbase.tpb, "198.51.100.23");
      const created = await pb.collection("contact_messages").create({
        name: "  Jo Doe ",
        email: " jo@example.com ",
        subject: "  Partnership  ",
        message: "  We would like to resell your proxies in Europe.  ",
        type: "partnership",
        ip: "10.9.8.7",
      });
      expect(created["ip"]).toBeUndefined();
      const stored = await pocketbase.su.collection("contact_messages").getOne(created.id);
      expect(stored).toMatchObject({
        name: "Jo Doe",
        email: "jo@example.com",
        subject: "Partnership",
        message: "We would like to resell your proxies in Europe.",
        ip: "198.51.100.23",
      });
    });

    it.each([
      ["a one-letter name", { name: "J" }],
      ["an invalid e-mail", { email: "not-an-email" }],
      ["a short subject", { subject: "Hey" }],
      ["a message under 20 characters once trimmed", { message: "   too short        " }],
      ["an unknown type", { type: "sales" }],
    ])("rejects %s", async (_label, override) => {
      const body = {
        name: "Jo Doe",
        email: "jo@example.com",
        subject: "A question",
        message: "Please tell me more about pricing.",
        type: "general",
        ...override,
      };
      expect(await statusOf(() => pocketbase.tpb.client().collection("contact_messages").create(body))).toBe(400);
    });
  });
}
