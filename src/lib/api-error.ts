// One error path for every island: what to show for a failed PocketBase call.
import { ClientResponseError } from "pocketbase";
import { OFFLINE_MESSAGE, UNEXPECTED_ERROR } from "@/lib/messages";

/** True when the request was cancelled (superseded or the page went away): show nothing. */
export function isAbort(err: unknown): boolean {
  return err instanceof ClientResponseError && err.isAbort;
}

/** The server's message for the user, or the generic one for network failures and bugs. */
export function errorMessage(err: unknown): string {
  if (err instanceof ClientResponseError && !err.isAbort) {
    if (err.status === 0) return OFFLINE_MESSAGE;
    // The developer API answers problem details (detail, and message for the SDK); other routes PocketBase's shape.
    const detail: unknown = err.response?.["detail"] ?? err.response?.["message"];
    const message = typeof detail === "string" ? detail : "";
    if (message) return message;
  }
  return UNEXPECTED_ERROR;
}

/**
 * A loaded view's state after a read failed: what it shows stays on screen ("ready", with
 * the error beside it); a view with nothing loaded yet shows the error ("error").
 */
export function readFailed<State extends { status: "idle" | "loading" | "ready" | "error"; error: string }>(
  state: State,
  err: unknown,
): State {
  return { ...state, status: state.status === "ready" ? "ready" : "error", error: errorMessage(err) };
}

/**
 * Per-field messages, keyed by field name: `errors.<field>.message` of the developer API's
 * problem details, or PocketBase's `data.<field>.message`.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(err instanceof ClientResponseError)) return out;
  const data: unknown = err.response?.["errors"] ?? err.response?.["data"];
  if (data && typeof data === "object") {
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      const message = (value as { message?: unknown } | null)?.message;
      if (typeof message === "string") out[field] = message;
    }
  }
  return out;
}
