// The contact form (spec 3 and 5). Mirrors the contact_messages field constraints
// (pocketbase/pb_migrations), which stay the server's truth.
import * as v from "valibot";
import { CONTACT_LIMITS, SUPPORT_LIMITS } from "@/lib/catalog";
import { textSchema } from "@/lib/text-schema";

export const CONTACT_TYPES = ["general", "technical", "billing", "partnership"] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export const CONTACT_TYPE_LABELS: Record<ContactType, string> = {
  general: "General inquiry",
  technical: "Technical support",
  billing: "Billing question",
  partnership: "Partnership",
};

export const ContactMessageSchema = v.object({
  name: textSchema(2, "Name must be at least 2 characters", CONTACT_LIMITS.name_max, CONTACT_LIMITS.name_max_message),
  email: v.pipe(v.string(), v.trim(), v.email("Invalid email address")),
  subject: textSchema(
    SUPPORT_LIMITS.subject_min,
    SUPPORT_LIMITS.subject_min_message,
    SUPPORT_LIMITS.subject_max,
    SUPPORT_LIMITS.subject_max_message,
  ),
  message: textSchema(20, "Message must be at least 20 characters", SUPPORT_LIMITS.message_max, SUPPORT_LIMITS.message_max_message),
  type: v.picklist(CONTACT_TYPES, "Please choose a topic"),
});

export type ContactMessageInput = v.InferInput<typeof ContactMessageSchema>;
export type ContactMessageOutput = v.InferOutput<typeof ContactMessageSchema>;

/** The id of each field's control on /contact (ContactForm.astro), by schema key. */
export const CONTACT_FIELD_IDS = {
  name: "contact-name",
  email: "contact-email",
  type: "contact-type",
  subject: "contact-subject",
  message: "contact-message",
} as const satisfies Record<keyof ContactMessageInput, string>;

/** The topic a link preselects (`/contact?type=partnership`), if it names one. */
export function contactTypeFrom(value: string | null): ContactType | null {
  return CONTACT_TYPES.find((t) => t === value) ?? null;
}
