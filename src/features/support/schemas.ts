// Support forms (spec 4, 5). They mirror what the server checks (POST /api/v1/support/tickets,
// the chat_messages field constraints and its attachments field), which stays the truth.
import * as v from "valibot";
import { TICKET_PRIORITIES } from "@/components/support/format";
import { SUPPORT_LIMITS as LIMITS } from "@/lib/catalog";
import { textSchema } from "@/lib/text-schema";

export const NewTicketSchema = v.object({
  subject: textSchema(LIMITS.subject_min, LIMITS.subject_min_message, LIMITS.subject_max, LIMITS.subject_max_message),
  message: textSchema(LIMITS.message_min, LIMITS.message_min_message, LIMITS.message_max, LIMITS.message_max_message),
  priority: v.picklist(TICKET_PRIORITIES, "Please choose a priority"),
});
export type NewTicketInput = v.InferInput<typeof NewTicketSchema>;
export type NewTicketOutput = v.InferOutput<typeof NewTicketSchema>;

export const EMPTY_TICKET: NewTicketInput = { subject: "", message: "", priority: "medium" };
