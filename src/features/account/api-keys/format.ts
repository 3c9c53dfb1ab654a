// What a key's row says: its status, last use, spend and expiry.
import { formatDate, formatDateTime, parseDate } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import type { ApiKey } from "@/features/account/api-keys/api";

export type ApiKeyStatus = "Active" | "Revoked" | "Expired";

/** Revoked wins over Expired: a revoked key never works again. */
export function keyStatus(key: Pick<ApiKey, "revoked_at" | "expires_at">, now: Date = new Date()): ApiKeyStatus {
  if (key.revoked_at) return "Revoked";
  const expires = parseDate(key.expires_at);
  return expires && expires.getTime() <= now.getTime() ? "Expired" : "Active";
}

/** "Jan 02, 2026 10:00 from 203.0.113.7", or "Never". */
export function lastUsed(apiKey: ApiKey): string {
  if (!apiKey.last_used_at) return "Never";
  return `${formatDateTime(apiKey.last_used_at)}${apiKey.last_used_ip ? ` from ${apiKey.last_used_ip}` : ""}`;
}

/** "$12.00 of $50.00", or "$3.00 · No cap": this month's spend always, against the cap when there is one. */
export function spend(apiKey: ApiKey): string {
  return apiKey.spend_cap_cents === null
    ? `${formatCents(apiKey.spent_this_month_cents)} · No cap`
    : `${formatCents(apiKey.spent_this_month_cents)} of ${formatCents(apiKey.spend_cap_cents)}`;
}

export const expires = (apiKey: ApiKey): string => (apiKey.expires_at ? formatDate(apiKey.expires_at) : "Never");
