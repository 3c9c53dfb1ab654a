// Stores a contact message in PocketBase (anyone may create; admins read it in the
// console) with one plain fetch, so /contact loads no SDK: POST
// /api/collections/contact_messages/records with the message as JSON, on this origin
// (the web server proxies /api to PocketBase). Never throws: the answer says what the
// form shows.
import type { ContactMessageOutput } from "@/features/contact/schemas";
import { OFFLINE_MESSAGE, UNEXPECTED_ERROR } from "@/lib/messages";

export const CONTACT_MESSAGES_URL = "/api/collections/contact_messages/records";

/** How long a send may take before the form gives up and says so (the button is busy meanwhile). */
export const SEND_TIMEOUT_MS = 30_000;

export type SendOutcome =
  | { ok: true }
  | {
      ok: false;
      /** For the banner: PocketBase's own message (the rate limiter's 429 included), or ours when there is none. */
      message: string;
      /** PocketBase's per-field messages (`data.<field>.message`), by field name. */
      fields: Record<string, string>;
    };

/** The banner text and field messages of a PocketBase error body (anything else gives the generic text). */
export function refusal(body: unknown): Extract<SendOutcome, { ok: false }> {
  const record = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const message = typeof record["message"] === "string" && record["message"].trim() !== "" ? record["message"] : UNEXPECTED_ERROR;
  const fields: Record<string, string> = {};
  const data = record["data"];
  if (data !== null && typeof data === "object") {
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      const text = (value as { message?: unknown } | null)?.message;
      if (typeof text === "string" && text !== "") fields[field] = text;
    }
  }
  return { ok: false, message, fields };
}

export async function sendContactMessage(
  message: ContactMessageOutput,
  { fetch: send = globalThis.fetch, timeoutMs = SEND_TIMEOUT_MS }: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await send(CONTACT_MESSAGES_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(message),
      credentials: "omit",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch {
    // Offline, refused, or no answer in time.
    return { ok: false, message: OFFLINE_MESSAGE, fields: {} };
  }
  if (response.ok) return { ok: true };
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page or an empty body: the generic text.
  }
  return refusal(body);
}
