// Support: opening a ticket with its first message (pb_hooks/lib/support/tickets.js). The
// chat that follows (replies, attachments) goes through the ticket's records.
import * as v from "valibot";
import { exampleOf, routeList, routesOf } from "./define";
import { Id } from "./schemas";

export const TICKET_PRIORITIES = ["low", "medium", "high", "urgent"] as const;

const StoredDate = v.pipe(v.string(), v.description('UTC as the shop stores it ("2026-11-27 12:40:27.007Z").'));

export const SupportTicket = v.pipe(
  v.object({
    id: Id,
    collectionId: v.string(),
    collectionName: v.literal("support_tickets"),
    user_id: Id,
    subject: v.string(),
    priority: v.picklist(TICKET_PRIORITIES),
    status: v.picklist(["open", "pending", "closed"]),
    awaiting_reply: v.pipe(v.boolean(), v.description("True while the last word is yours (staff have not answered yet).")),
    last_message_at: StoredDate,
    created: StoredDate,
    updated: StoredDate,
  }),
  v.title("SupportTicket"),
  v.description("A ticket as the shop stores it (the records API's support_tickets row)."),
  v.examples([
    {
      id: "s3d7f1g5h9j2k6l",
      collectionId: "pbc_1437206934",
      collectionName: "support_tickets",
      user_id: "u1c5g9k3o7s2w6a",
      subject: "Proxy does not connect",
      priority: "medium",
      status: "open",
      awaiting_reply: true,
      last_message_at: "2026-11-27 12:40:27.007Z",
      created: "2026-11-27 12:40:27.007Z",
      updated: "2026-11-27 12:40:27.007Z",
    },
  ]),
);

export const ChatMessage = v.pipe(
  v.object({
    id: Id,
    collectionId: v.string(),
    collectionName: v.literal("chat_messages"),
    ticket_id: Id,
    sender_id: Id,
    message: v.string(),
    is_admin_message: v.boolean(),
    attachments: v.pipe(v.array(v.string()), v.description("File names (protected files); none on a new ticket.")),
    created: StoredDate,
    updated: StoredDate,
  }),
  v.title("ChatMessage"),
  v.description("A message of a ticket as the shop stores it (the records API's chat_messages row)."),
  v.examples([
    {
      id: "m8n2b6v1c5x9z3q",
      collectionId: "pbc_2980512738",
      collectionName: "chat_messages",
      ticket_id: "s3d7f1g5h9j2k6l",
      sender_id: "u1c5g9k3o7s2w6a",
      message: "My proxy in Germany refuses connections since this morning.",
      is_admin_message: false,
      attachments: [],
      created: "2026-11-27 12:40:27.007Z",
      updated: "2026-11-27 12:40:27.007Z",
    },
  ]),
);

const support = routesOf({ tag: "Support", scope: "session" });

export const createSupportTicket = support.post("/support/tickets", {
  summary: "Open a support ticket",
  description:
    "A new open ticket and its first message in one step (a JSON body; attachments are added to later messages). Staff are told by e-mail. A signed-in session only, never an API key.",
  body: v.pipe(
    v.object({
      subject: v.pipe(
        v.string("Subject must be at least 5 characters"),
        v.minLength(5, "Subject must be at least 5 characters"),
        v.maxLength(200, "Subject must be at most 200 characters"),
        v.examples(["Proxy does not connect"]),
      ),
      message: v.pipe(
        v.string("Message must be at least 10 characters"),
        v.minLength(10, "Message must be at least 10 characters"),
        v.maxLength(5000, "Message must be at most 5000 characters"),
        v.examples(["My proxy in Germany refuses connections since this morning."]),
      ),
      priority: v.optional(
        v.pipe(v.picklist(TICKET_PRIORITIES, "Priority must be low, medium, high or urgent"), v.description("Default medium.")),
      ),
    }),
    v.examples([
      { subject: "Proxy does not connect", message: "My proxy in Germany refuses connections since this morning.", priority: "medium" },
    ]),
  ),
  response: v.pipe(
    v.object({ ticket: SupportTicket, message: ChatMessage }),
    v.title("NewSupportTicket"),
    v.examples([{ ticket: exampleOf(SupportTicket), message: exampleOf(ChatMessage) }]),
  ),
  errors: [403],
});

export const supportRoutes = routeList({ createSupportTicket });
