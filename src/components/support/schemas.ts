// Support rules the customer's page and the console share: the reply box and its
// attachments. They mirror the chat_messages field constraints and its
// attachments field, which stay the truth.
import { SUPPORT_LIMITS } from "@/lib/catalog";
import { textSchema } from "@/lib/text-schema";

export const ReplySchema = textSchema(1, "Type a message before sending", SUPPORT_LIMITS.message_max, SUPPORT_LIMITS.message_max_message);

/** Attachments on a reply (the chat_messages.attachments field: protected, 5 files, 5 MB each). */
export const ATTACHMENT_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"] as const;
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_ATTACHMENTS = 5;
/** For the file input's `accept`. */
export const ATTACHMENT_ACCEPT = ".png,.jpg,.jpeg,.gif,.webp,.pdf," + ATTACHMENT_TYPES.join(",");

export const ATTACHMENT_TYPE_MESSAGE = "Only PNG, JPEG, GIF or WebP images and PDF files can be attached";
export const ATTACHMENT_COUNT_MESSAGE = `You can attach at most ${MAX_ATTACHMENTS} files to a message`;

/** What the form needs of a file (File satisfies it). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
}

/**
 * Adds `picked` to the files already chosen: the accepted ones, and one message per file
 * refused (wrong type, over 5 MB, or beyond the fifth file).
 */
export function addAttachments<T extends FileLike>(current: readonly T[], picked: readonly T[]): { files: T[]; errors: string[] } {
  const files = [...current];
  const errors: string[] = [];
  for (const file of picked) {
    if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) {
      errors.push(`${file.name}: ${ATTACHMENT_TYPE_MESSAGE}.`);
    } else if (file.size > MAX_ATTACHMENT_BYTES) {
      errors.push(`${file.name}: files can be at most 5 MB.`);
    } else if (files.length >= MAX_ATTACHMENTS) {
      errors.push(`${file.name}: ${ATTACHMENT_COUNT_MESSAGE}.`);
    } else {
      files.push(file);
    }
  }
  return { files, errors };
}
