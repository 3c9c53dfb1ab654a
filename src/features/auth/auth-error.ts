// What an auth form shows for a failed call: clear words for the rate limit and bad
// credentials, otherwise the shared error path.
import { ClientResponseError } from "pocketbase";
import { errorMessage } from "@/lib/api-error";

export const RATE_LIMITED = "Too many attempts. Please wait a minute and try again.";

export function authErrorMessage(err: unknown, kind: "password" | "code" | "other" = "other"): string {
  if (err instanceof ClientResponseError && !err.isAbort) {
    if (err.status === 429) return RATE_LIMITED;
    if (err.status === 400 && kind === "password") return "Invalid email or password.";
    if (err.status === 400 && kind === "code") return "That code is wrong or has expired. Request a new one.";
  }
  return errorMessage(err);
}
