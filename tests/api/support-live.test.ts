// Live support topics (pb_hooks/lib/support/support-live.js): a ticket's owner and staff get its
// messages and changes on support/tickets/<id>, the owner gets their tickets on
// support/users/<id>; anyone else subscribed to those names gets nothing, and an admin
// who is demoted stops receiving at once.
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import { beforeAll, expect, it } from "vitest";
import { signIn } from "../support/pocketbase.ts";
import { customer, type Customer } from "../support/shop.ts";
import { useShop } from "../support/use-shop.ts";

(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

interface SupportEvent {
  collection: string;
  action: string;
  record: { id: string; ticket_id?: string; message?: string; status?: string; user_id?: string };
}

const shop = useShop({ ledger: false });
let owner: Customer;
let other: Customer;

beforeAll(async () => {
  owner = await customer(shop);
  other = await customer(shop);
});

/** Subscribes `pb` to `topics` and collects what arrives. */
async function listen(pb: PocketBase, topics: string[]) {
  const events: Array<{ topic: string; event: SupportEvent }> = [];
  for (const topic of topics) await pb.realtime.subscribe(topic, (event: SupportEvent) => events.push({ topic, event }));
  return { events, stop: () => pb.realtime.unsubscribe() };
}

async function newTicket(pb: PocketBase, subject: string): Promise<string> {
  const { ticket } = await pb.send<{ ticket: { id: string } }>("/api/v1/support/tickets", {
    method: "POST",
    body: { subject, message: "The proxy in Frankfurt stopped answering." },
  });
  return ticket.id;
}

/** Waits until `done()` or `ms` pass, so a test that expects nothing still waits for it. */
async function settle(done: () => boolean, ms = 1500): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

it("the owner and staff get a ticket's messages and changes; another customer gets nothing", async () => {
  const ticketId = await newTicket(owner.pb, "Frankfurt proxy down");
  const ownerListener = await signIn(shop.tpb, owner);
  const otherListener = await signIn(shop.tpb, other);
  const mine = await listen(ownerListener, [`support/tickets/${ticketId}`, `support/users/${owner.id}`]);
  const staff = await listen(shop.admin, [`support/tickets/${ticketId}`]);
  const snoop = await listen(otherListener, [`support/tickets/${ticketId}`, `support/users/${owner.id}`]);
  try {
    await shop.admin
      .collection("chat_messages")
      .create({ ticket_id: ticketId, sender_id: shop.admin.authStore.record!.id, message: "We are looking into it now." });
    await owner.pb.collection("chat_messages").create({ ticket_id: ticketId, sender_id: owner.id, message: "Thank you, it is urgent." });
    await shop.admin.collection("support_tickets").update(ticketId, { status: "pending" });

    const messagesOf = (l: typeof mine) =>
      l.events.filter((e) => e.event.collection === "chat_messages").map((e) => e.event.record.message);
    await settle(
      () => messagesOf(mine).length >= 2 && messagesOf(staff).length >= 2 && mine.events.some((e) => e.event.record.status === "pending"),
    );
    expect(messagesOf(mine)).toEqual(["We are looking into it now.", "Thank you, it is urgent."]);
    expect(messagesOf(staff)).toEqual(["We are looking into it now.", "Thank you, it is urgent."]);
    expect(mine.events.find((e) => e.event.collection === "chat_messages")?.event).toMatchObject({
      action: "create",
      record: { ticket_id: ticketId },
    });
    // The status change reaches the owner on both topics (the open conversation and the list).
    const statusTopics = mine.events.filter((e) => e.event.record.status === "pending").map((e) => e.topic);
    expect(statusTopics).toEqual(expect.arrayContaining([`support/tickets/${ticketId}`, `support/users/${owner.id}`]));
    expect(snoop.events).toEqual([]);
  } finally {
    await mine.stop();
    await staff.stop();
    await snoop.stop();
  }
});

it("a new ticket reaches its owner's list topic", async () => {
  const listener = await signIn(shop.tpb, owner);
  const mine = await listen(listener, [`support/users/${owner.id}`]);
  try {
    const ticketId = await newTicket(owner.pb, "Second ticket for the list");
    await settle(() => mine.events.some((e) => e.event.action === "create" && e.event.record.id === ticketId));
    expect(mine.events.find((e) => e.event.record.id === ticketId)?.event).toMatchObject({
      collection: "support_tickets",
      action: "create",
      record: { user_id: owner.id },
    });
  } finally {
    await mine.stop();
  }
});

it("an anonymous client and a demoted admin get nothing", async () => {
  const ticketId = await newTicket(owner.pb, "Third ticket, watched by many");
  const formerAdmin = await customer(shop);
  await shop.su.collection("users").update(formerAdmin.id, { is_admin: true });
  const formerAdminListener = await signIn(shop.tpb, formerAdmin);
  const anonymous = shop.tpb.client();
  const demoted = await listen(formerAdminListener, [`support/tickets/${ticketId}`]);
  const nobody = await listen(anonymous, [`support/tickets/${ticketId}`, `support/users/${owner.id}`]);
  try {
    // Still an admin: receives.
    await owner.pb
      .collection("chat_messages")
      .create({ ticket_id: ticketId, sender_id: owner.id, message: "First message while staff watch." });
    const messages = () => demoted.events.filter((e) => e.event.collection === "chat_messages").map((e) => e.event.record.message);
    await settle(() => messages().length >= 1);
    expect(messages()).toEqual(["First message while staff watch."]);

    await shop.su.collection("users").update(formerAdmin.id, { is_admin: false });
    await owner.pb
      .collection("chat_messages")
      .create({ ticket_id: ticketId, sender_id: owner.id, message: "Second message after the demotion." });
    const seenBefore = demoted.events.length;
    await settle(() => false, 800);
    expect(messages()).toEqual(["First message while staff watch."]);
    expect(demoted.events.length).toBe(seenBefore);
    expect(nobody.events).toEqual([]);
  } finally {
    await demoted.stop();
    await nobody.stop();
  }
});
