// Support forms (spec 4, 5). They mirror what the server checks (POST /api/v1/support/tickets,
// the chat_messages field constraints and its attachments field), which stays the truth.
import * as v from "valibot";
import { TICKET_PRIORITIES } from "@/components/support/schemas";

export const NewTicketSchema = v.object({
  subject: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(5, "Subject must be at least 5 characters"),
    v.maxLength(200, "Subject must be at most 200 characters"),
  ),
  message: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(10, "Message must be at least 10 characters"),
    v.maxLength(5000, "Message must be at most 5000 characters"),
  ),
  priority: v.picklist(TICKET_PRIORITIES, "Please choose a priority"),
});
export type NewTicketInput = v.InferInput<typeof NewTicketSchema>;
export type NewTicketOutput = v.InferOutput<typeof NewTicketSchema>;

export const EMPTY_TICKET: NewTicketInput = { subject: "", message: "", priority: "medium" };
