// Pricing Management calls: the records API (admins see and write every plan; each write is
// audited and demo-mode-checked by audit.pb.js; the public pages follow by themselves).
import type { PlanOutput } from "@/features/console-pricing/schemas";
import { pb } from "@/lib/pocketbase";
import type { PricingPlanRecord } from "@/lib/pocketbase-types";
import type { PricingPlan } from "@/lib/site";

/** A plan as the console edits it: with the limits a purchase copies onto its proxies (0 = unlimited) and its free replacements a term. */
export type ConsolePlan = PricingPlan & Pick<PricingPlanRecord, "bandwidth_quota_gb" | "max_connections" | "replacements_per_term">;

/** Every plan (a shop has a handful), by type then price. */
export function listPlans(signal?: AbortSignal): Promise<ConsolePlan[]> {
  return pb()
    .collection("pricing_plans")
    .getFullList<ConsolePlan>({ sort: "type,price_cents,name", requestKey: null, ...(signal ? { signal } : {}) });
}

export function createPlan(values: PlanOutput): Promise<ConsolePlan> {
  return pb().collection("pricing_plans").create<ConsolePlan>(values, { requestKey: null });
}

export function updatePlan(id: string, values: PlanOutput): Promise<ConsolePlan> {
  return pb().collection("pricing_plans").update<ConsolePlan>(id, values, { requestKey: null });
}

export async function deletePlan(id: string): Promise<void> {
  await pb().collection("pricing_plans").delete(id, { requestKey: null });
}
