// The support stores' subscriptions: renewed on ticket switch, dropped on sign-out and
// unmount, and a message that arrives twice (answer + realtime event) shown once.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ChatMessageRecord, SupportTicketRecord, UserRecord } from "@/lib/pocketbase-types";

type Handler = (event: { collection?: string; action: string; record: unknown }) => void;

const fake = vi.hoisted(() => ({
  /** Live subscriptions by topic ("conversation:<ticket>", "tickets:<user>", "reconnect"). */
  subscriptions: new Map<string, Handler[]>(),
  messages: new Map<string, unknown[]>(),
  tickets: [] as unknown[],
  sent: [] as unknown[],
}));

/** Holds `handler` under `topic` until the answered unsubscribe function runs. */
const hold = vi.hoisted(() => (topic: string, handler: Handler) => {
  const list = fake.subscriptions.get(topic) ?? [];
  list.push(handler);
  fake.subscriptions.set(topic, list);
  return Promise.resolve(async () => {
    const rest = (fake.subscriptions.get(topic) ?? []).filter((h) => h !== handler);
    if (rest.length > 0) fake.subscriptions.set(topic, rest);
    else fake.subscriptions.delete(topic);
  });
});

// The realtime connection (lib/realtime.ts watches PB_CONNECT for reconnects).
vi.mock("@/lib/pocketbase", () => ({
  pb: () => ({
    realtime: {
      isConnected: true,
      subscribe: (topic: string, handler: Handler) =>
        topic === "PB_CONNECT" ? hold("reconnect", handler) : Promise.reject(new Error(topic)),
    },
  }),
}));

/** Both support api modules: the page's (features/support) and the shared one (components/support). */
const api = vi.hoisted(() => {
  return {
    TICKETS_PER_PAGE: 20,
    subscribeConversation: (ticketId: string, handler: Handler) => hold(`conversation:${ticketId}`, handler),
    subscribeUserTickets: (userId: string, handler: Handler) => hold(`tickets:${userId}`, handler),
    listTickets: async () => ({ items: fake.tickets, page: 1, totalPages: 1 }),
    getTicket: async (id: string) => fake.tickets.find((t) => (t as { id: string }).id === id),
    listMessages: async (ticketId: string) => fake.messages.get(ticketId) ?? [],
    sendMessage: async (ticketId: string, senderId: string, message: string) => {
      const record = msg(`sent${fake.sent.length}`, ticketId, "2026-01-01 12:00:00.000Z", message, senderId);
      fake.sent.push(record);
      return record;
    },
    createTicket: async () => {
      throw new Error("not used");
    },
    loadSupportNameSetting: async () => "",
    fileToken: async () => "token",
    attachmentUrl: () => "",
    withSignal: () => ({}),
  };

  function msg(id: string, ticket_id: string, created: string, message: string, sender_id: string) {
    return { id, ticket_id, created, message, sender_id, is_admin_message: false, attachments: [] };
  }
});
vi.mock("@/features/support/api", () => api);
vi.mock("@/components/support/api", () => api);

const { $auth } = await import("@/stores/auth");
const { $conversation, $tickets, sendReply } = await import("@/features/support/stores");
const { selectTicket } = await import("@/components/support/conversation-store");

const user = { id: "user1", email: "casey@example.com" } as UserRecord;
const ticket = (id: string, created = "2026-01-01 10:00:00.000Z"): SupportTicketRecord =>
  ({ id, user_id: user.id, subject: `Ticket ${id}`, priority: "medium", status: "open", created }) as SupportTicketRecord;
const message = (id: string, ticketId: string, created: string, sender = user.id): ChatMessageRecord =>
  ({
    id,
    ticket_id: ticketId,
    created,
    message: `text ${id}`,
    sender_id: sender,
    is_admin_message: sender !== user.id,
    attachments: [],
  }) as unknown as ChatMessageRecord;

/** Lets the stores' async starts (subscribe, then load) finish. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** An event on a support topic, as pb_hooks/lib/support/support-live.js sends it. */
const emit = (topic: string, collection: "chat_messages" | "support_tickets", action: string, record: unknown) => {
  for (const handler of fake.subscriptions.get(topic) ?? []) handler({ collection, action, record });
};

beforeEach(() => {
  vi.useFakeTimers();
  fake.subscriptions.clear();
  // Newest first, as the server answers.
  fake.tickets = [ticket("tB", "2026-01-01 11:00:00.000Z"), ticket("tA")];
  fake.messages = new Map([
    ["tA", [message("a1", "tA", "2026-01-01 10:00:00.000Z")]],
    ["tB", [message("b1", "tB", "2026-01-01 10:00:00.000Z")]],
  ]);
  fake.sent = [];
  $auth.set({ status: "signed-in", user });
  selectTicket(null);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("support stores", () => {
  it("follow only the selected ticket and renew the subscriptions on a switch", async () => {
    const off = $conversation.listen(() => {});
    selectTicket("tA");
    await settle();
    expect($conversation.get().messages.map((m) => m.id)).toEqual(["a1"]);
    expect([...fake.subscriptions.keys()].sort()).toEqual(["conversation:tA", "reconnect"]);

    selectTicket("tB");
    await settle();
    expect([...fake.subscriptions.keys()].sort()).toEqual(["conversation:tB", "reconnect"]);
    expect(fake.subscriptions.get("reconnect")).toHaveLength(1);
    emit("conversation:tA", "chat_messages", "create", message("a2", "tA", "2026-01-01 11:00:00.000Z"));
    expect($conversation.get().messages.map((m) => m.id)).toEqual(["b1"]);

    // A live staff reply and a status change.
    emit("conversation:tB", "chat_messages", "create", message("b2", "tB", "2026-01-01 11:00:00.000Z", "staff1"));
    emit("conversation:tB", "support_tickets", "update", { ...ticket("tB"), status: "closed" });
    expect($conversation.get().messages.map((m) => m.id)).toEqual(["b1", "b2"]);
    expect($conversation.get().ticket?.status).toBe("closed");

    off();
    vi.advanceTimersByTime(1000);
    await settle();
    expect(fake.subscriptions.size).toBe(0);
    expect($conversation.value?.ticketId).toBeNull();
  });

  it("shows a sent message once, whether its realtime event comes before or after the answer", async () => {
    const off = $conversation.listen(() => {});
    selectTicket("tA");
    await settle();
    const sent = await sendReply("Thanks!", []);
    emit("conversation:tA", "chat_messages", "create", sent);
    emit("conversation:tA", "chat_messages", "create", sent);
    expect($conversation.get().messages.map((m) => m.id)).toEqual(["a1", sent.id]);
    off();
    vi.advanceTimersByTime(1000);
  });

  it("drop every subscription when the user signs out", async () => {
    const offTickets = $tickets.listen(() => {});
    const offConversation = $conversation.listen(() => {});
    selectTicket("tA");
    await settle();
    expect($tickets.get().items.map((t) => t.id)).toEqual(["tB", "tA"]);
    expect([...fake.subscriptions.keys()].sort()).toEqual(["conversation:tA", "reconnect", "tickets:user1"]);
    expect(fake.subscriptions.get("reconnect")).toHaveLength(2);

    $auth.set({ status: "signed-out", user: null });
    await settle();
    expect(fake.subscriptions.size).toBe(0);
    expect($conversation.get().messages).toEqual([]);
    expect($tickets.get().items).toEqual([]);
    offTickets();
    offConversation();
    vi.advanceTimersByTime(1000);
  });

  it("keep the tickets list live: new tickets on top, status changes in place", async () => {
    const off = $tickets.listen(() => {});
    await settle();
    emit(`tickets:${user.id}`, "support_tickets", "create", { ...ticket("tC"), created: "2026-01-02 10:00:00.000Z" });
    emit(`tickets:${user.id}`, "support_tickets", "update", { ...ticket("tA"), status: "pending" });
    emit(`tickets:${user.id}`, "support_tickets", "create", { ...ticket("tC"), created: "2026-01-02 10:00:00.000Z" });
    expect($tickets.get().items.map((t) => `${t.id}:${t.status}`)).toEqual(["tC:open", "tB:open", "tA:pending"]);
    off();
    vi.advanceTimersByTime(1000);
    await settle();
    expect(fake.subscriptions.size).toBe(0);
  });
});
