// Replacing a proxy's IP and refunding a proxy whose exit is down (issue #28): the calls of
// the dialogs that load on first use (replace-dialog.tsx), kept out of the page's bundle.
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { getProxyReplacement, refundDownProxy, replaceProxy } from "@/lib/api-contract/proxy-replacement";

export type ReplacementPreview = ResponseOf<typeof getProxyReplacement>;

/** What a replacement would give, and the free replacements left (no change, no charge). */
export function fetchReplacement(id: string, signal?: AbortSignal): Promise<ReplacementPreview> {
  return api.call(getProxyReplacement, { params: { id }, ...(signal ? { signal } : {}) });
}

/** Replaces the proxy's IP; `key` is the attempt's Idempotency-Key. */
export function replaceIp(id: string, key: string): Promise<ResponseOf<typeof replaceProxy>> {
  return api.call(replaceProxy, { params: { id }, idempotencyKey: key });
}

/** Refunds the days left on a proxy whose exit is down; `key` is the attempt's Idempotency-Key. */
export function refundDown(id: string, key: string): Promise<ResponseOf<typeof refundDownProxy>> {
  return api.call(refundDownProxy, { params: { id }, idempotencyKey: key });
}
