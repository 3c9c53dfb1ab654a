// Pricing Management state: every plan, kept live (another admin's change shows at once).
import { atom, onMount } from "nanostores";
import { followLive, type Live } from "@/lib/realtime";
import { createPlan, deletePlan, listPlans, updatePlan, type ConsolePlan } from "@/features/console-pricing/api";
import type { PlanOutput } from "@/features/console-pricing/schemas";
import { errorMessage, isAbort } from "@/lib/api-error";
import { PROXY_TYPES } from "@/lib/catalog";
import { pb } from "@/lib/pocketbase";

export interface PlansState {
  status: "loading" | "ready" | "error";
  plans: ConsolePlan[];
  error: string;
}

export const $plans = atom<PlansState>({ status: "loading", plans: [], error: "" });

/** A plan type's place in the catalog's order of proxy types. */
const typeRank = (type: string) => (PROXY_TYPES as readonly string[]).indexOf(type);

/** By type (the catalog's order), then price, then name. */
export function byTypeAndPrice(a: ConsolePlan, b: ConsolePlan): number {
  return typeRank(a.type) - typeRank(b.type) || a.price_cents - b.price_cents || a.name.localeCompare(b.name);
}

function put(plan: ConsolePlan): void {
  const state = $plans.get();
  $plans.set({ ...state, plans: [...state.plans.filter((p) => p.id !== plan.id), plan].sort(byTypeAndPrice) });
}

function drop(id: string): void {
  const state = $plans.get();
  $plans.set({ ...state, plans: state.plans.filter((p) => p.id !== id) });
}

let request: AbortController | null = null;

export async function loadPlans(): Promise<void> {
  request?.abort();
  const current = new AbortController();
  request = current;
  try {
    const plans = await listPlans(current.signal);
    if (!current.signal.aborted) $plans.set({ status: "ready", plans: [...plans].sort(byTypeAndPrice), error: "" });
  } catch (err) {
    if (isAbort(err) || current.signal.aborted) return;
    const state = $plans.get();
    $plans.set({ ...state, status: state.status === "ready" ? "ready" : "error", error: errorMessage(err) });
  }
}

onMount($plans, () => {
  const live: Live = followLive({
    what: "plan",
    subscribe: () =>
      pb()
        .collection("pricing_plans")
        .subscribe<ConsolePlan>("*", ({ action, record }) => {
          if (live.stopped) return;
          if (action === "delete") drop(record.id);
          else put(record);
        }),
    reload: loadPlans,
  });
  return () => {
    live.stop();
    request?.abort();
    $plans.set({ status: "loading", plans: [], error: "" });
  };
});

export async function savePlan(id: string | null, values: PlanOutput): Promise<ConsolePlan> {
  const plan = id ? await updatePlan(id, values) : await createPlan(values);
  put(plan);
  return plan;
}

export async function removePlan(id: string): Promise<void> {
  await deletePlan(id);
  drop(id);
}
