// Pricing Management calls: the records API (admins see and write every plan; each write is
// audited and demo-mode-checked by audit.pb.js; the public pages follow by themselves).
import type { PlanOutput } from "@/features/console-pricing/schemas";
import { pb } from "@/lib/pocketbase";
import type { PricingPlan } from "@/lib/pocketbase-types";

/** Every plan (a shop has a handful), by type then price. */
export function listPlans(signal?: AbortSignal): Promise<PricingPlan[]> {
  return pb()
    .collection("pricing_plans")
    .getFullList<PricingPlan>({ sort: "type,price_cents,name", requestKey: null, ...(signal ? { signal } : {}) });
}

export function createPlan(values: PlanOutput): Promise<PricingPlan> {
  return pb().collection("pricing_plans").create<PricingPlan>(values, { requestKey: null });
}

export function updatePlan(id: string, values: PlanOutput): Promise<PricingPlan> {
  return pb().collection("pricing_plans").update<PricingPlan>(id, values, { requestKey: null });
}

export async function deletePlan(id: string): Promise<void> {
  await pb().collection("pricing_plans").delete(id, { requestKey: null });
}
