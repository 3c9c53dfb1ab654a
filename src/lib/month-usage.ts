// A proxy's UTC calendar month so far, as the server answers it (pb_hooks/lib/proxies/usage.js):
// the customer's cards (GET /api/v1/proxies/usage-summary) and the console's proxy detail read it.
// The contract's MonthUsage (src/lib/api-contract/proxies.ts): bytes (up and down together),
// quota_bytes (0 = no quota), max_connections (0 = no cap), quota_reached, renews_on
// ("2026-12-01": when the quota starts again, UTC).
import type * as v from "valibot";
import type { MonthUsage as MonthUsageSchema } from "@/lib/api-contract/proxies";

export type MonthUsage = v.InferOutput<typeof MonthUsageSchema>;
