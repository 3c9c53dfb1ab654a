// The account's own developer-API routes (the signed-in user's settings that only the server
// writes), through the typed caller.
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { getIpAllowlist, replaceIpAllowlist } from "@/lib/api-contract/account";

/** The customer's proxy IP allowlist ([] = their proxies answer connections from anywhere). */
export type IpAllowlist = ResponseOf<typeof getIpAllowlist>;

export function fetchIpAllowlist(signal?: AbortSignal): Promise<IpAllowlist> {
  return api.call(getIpAllowlist, signal ? { signal } : {});
}

/**
 * Replaces the allowlist with the entries as typed (one per line, or separated by commas):
 * the server checks and normalises them and answers the list it stored.
 */
export function saveIpAllowlist(text: string): Promise<IpAllowlist> {
  return api.call(replaceIpAllowlist, { body: { text } });
}
