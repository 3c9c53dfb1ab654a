// Stores a contact message in PocketBase (anyone may create; admins read it in the console).
import { pb } from "@/lib/pocketbase";
import type { ContactMessageOutput } from "@/features/contact/schemas";

export async function sendContactMessage(message: ContactMessageOutput): Promise<void> {
  await pb().collection("contact_messages").create(message, { requestKey: null });
}
