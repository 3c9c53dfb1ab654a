// The problem codes of the developer API as the reference lists them: each with the anchor
// the answers' `type` points at.
export interface ProblemView {
  /** As the answers carry it (`code`): invalid_api_key. */
  code: string;
  /** The anchor the answers' `type` points at: problem-invalid-api-key. */
  anchor: string;
  status: number;
  meaning: string;
}

/** Where the problem details' `type` points (pocketbase/devapi/problem.go problemTypeBase). */
export const PROBLEM_TYPE_BASE = "/docs/api#problem-";

/**
 * The problem codes the server answers with (pocketbase/devapi: problem.go, keys.go, scopes.go and the
 * hooks); tests/unit/api-reference.test.ts fails when the server uses one not listed here.
 */
export const PROBLEM_CODES: readonly Omit<ProblemView, "anchor">[] = [
  {
    code: "invalid_api_key",
    status: 401,
    meaning: "The key is unknown (check that it was copied whole) or its account no longer exists.",
  },
  { code: "api_key_revoked", status: 401, meaning: "The key was revoked in Settings → API Access. Create a new one." },
  { code: "api_key_expired", status: 401, meaning: "The key's expiry date has passed. Create a new one." },
  { code: "ip_not_allowed", status: 403, meaning: "The request came from an address outside the key's IP allowlist." },
  { code: "insufficient_scope", status: 403, meaning: "The key lacks the scope the operation needs (read, purchase, rotate or webhooks)." },
  {
    code: "session_required",
    status: 403,
    meaning: "API keys cannot do this (managing keys): sign in to the dashboard and use Settings → API Access.",
  },
  { code: "not_for_api_keys", status: 403, meaning: "The route is not part of the developer API, so an API key cannot call it." },
  {
    code: "rate_limited",
    status: 429,
    meaning: "Too many requests for this key this minute: wait for the seconds in Retry-After, then try again.",
  },
  {
    code: "spend_cap_reached",
    status: 403,
    meaning: "The purchase would take the key past its monthly spend cap (the reason is in errors.spend_cap.code). Nothing was charged.",
  },
  { code: "account_suspended", status: 403, meaning: "The key's account is suspended. Contact support." },
];

/** "invalid_api_key" → "problem-invalid-api-key" (the server's `type` fragment). */
export const problemAnchor = (code: string): string => `problem-${code.replaceAll("_", "-")}`;
