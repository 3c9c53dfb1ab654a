// What the usage tests share (usage.test.ts, usage-quota.test.ts): sizes, month and hour
// arithmetic in UTC, and the usage answers' types from the API contract.
import type { ResponseOf } from "@/lib/api-contract/define";
import type { getProxyUsage } from "@/lib/api-contract/proxies";

export const GB = 2 ** 30;
export const HOUR = 3_600_000;

/** GET /api/v1/proxies/{id}/usage. */
export type Usage = ResponseOf<typeof getProxyUsage>;
/** A proxy's month against its quota (in Usage and in GET /api/v1/proxies/usage-summary). */
export type Month = Usage["month"];
/** One period's figures (Usage's totals, and the console's last 24 hours). */
export type Totals = Usage["totals"];

export const monthStart = (ms = Date.now()) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);
export const nextMonth = (ms = Date.now()) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth() + 1, 1);
export const hourIso = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString();
/** A moment as PocketBase stores dates ("2026-11-27 06:07:08.000Z"). */
export const dbDate = (ms: number) => new Date(ms).toISOString().replace("T", " ");
