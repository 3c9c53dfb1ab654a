// The account's own routes under /api/v1/account (the signed-in user's settings that only
// the server writes).
import type { ResponseOf } from "@/lib/api-contract/define";
import type { getIpAllowlist } from "@/lib/api-contract/account";
import { pb, withSignal } from "@/lib/pocketbase";

/** The customer's proxy IP allowlist ([] = their proxies answer connections from anywhere). */
export type IpAllowlist = ResponseOf<typeof getIpAllowlist>;

const IP_ALLOWLIST = "/api/v1/account/ip-allowlist";

/** GET /api/v1/account/ip-allowlist. */
export function fetchIpAllowlist(signal?: AbortSignal): Promise<IpAllowlist> {
  return pb().send<IpAllowlist>(IP_ALLOWLIST, withSignal(signal));
}

/**
 * PUT /api/v1/account/ip-allowlist with the entries as typed (one per line, or separated by
 * commas): the server checks and normalises them and answers the list it stored.
 */
export function saveIpAllowlist(text: string): Promise<IpAllowlist> {
  return pb().send<IpAllowlist>(IP_ALLOWLIST, { method: "PUT", body: { text }, requestKey: null });
}
