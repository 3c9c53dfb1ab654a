// The plan form (admin spec 5 "Pricing plan"). It mirrors what the server enforces
// (pocketbase/pb_hooks/lib/proxies/prices.js validatePlan and the collection's fields), which stays the truth.
import * as v from "valibot";
import { MAX_PLAN_PRICE_CENTS, MAX_PLAN_PRICE_MESSAGE, PROXY_TYPES } from "@/lib/catalog";
import type { ConsolePlan } from "@/features/console-pricing/api";
import { PLAN_PLACEHOLDERS, unknownPlaceholders } from "@/lib/plan-features";

/** "12.5" dollars -> 1250 cents (rounded to the cent); NaN when not a number. */
export function dollarsToCents(text: string): number {
  const trimmed = text.trim();
  if (!/^\d*(?:\.\d*)?$/.test(trimmed) || trimmed === "" || trimmed === ".") return Number.NaN;
  return Math.round(Number(trimmed) * 100);
}

/** 1250 -> "12.50". */
export function centsToDollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** One feature a line, blank lines dropped, each trimmed. */
export function featureLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

// The server's messages for the limits (pb_hooks/lib/proxies/prices.js validatePlan).
export const LIMIT_MESSAGES = {
  bandwidthQuota: "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)",
  maxConnections: "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)",
} as const;

/** A limit as typed: a whole number from 0 to `max`, blank is 0 (unlimited). */
function limit(max: number, message: string) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === "" || (/^\d{1,7}$/.test(text) && Number(text) <= max), message),
    v.transform(Number),
  );
}

/** "{session_max_hours}, {term_days}, ...": the placeholders a feature line may hold. */
export const PLACEHOLDER_LIST = Object.keys(PLAN_PLACEHOLDERS)
  .map((name) => `{${name}}`)
  .join(", ");

export const PlanSchema = v.pipe(
  v.object({
    name: v.pipe(v.string(), v.trim(), v.minLength(1, "Name is required"), v.maxLength(100, "Name must be at most 100 characters")),
    type: v.picklist(PROXY_TYPES, "Please choose a proxy type"),
    price: v.pipe(
      v.string(),
      v.transform(dollarsToCents),
      v.check((cents) => Number.isFinite(cents) && cents >= 1, "Price must be greater than 0"),
      v.check((cents) => !(cents > MAX_PLAN_PRICE_CENTS), MAX_PLAN_PRICE_MESSAGE),
    ),
    features: v.pipe(
      v.string(),
      v.transform(featureLines),
      v.check((lines) => lines.length > 0, "Features are required"),
      v.check(
        (lines) => lines.every((line) => unknownPlaceholders(line).length === 0),
        `Unknown placeholder: use ${PLACEHOLDER_LIST}, or plain text`,
      ),
    ),
    bandwidth_quota_gb: limit(1_000_000, LIMIT_MESSAGES.bandwidthQuota),
    max_connections: limit(100_000, LIMIT_MESSAGES.maxConnections),
    popular: v.boolean(),
    active: v.boolean(),
  }),
  v.transform(({ price, ...rest }) => ({ ...rest, price_cents: price })),
);

export type PlanInput = v.InferInput<typeof PlanSchema>;
export type PlanOutput = v.InferOutput<typeof PlanSchema>;

export const EMPTY_PLAN: PlanInput = {
  name: "",
  type: "RESIDENTIAL",
  price: "",
  features: "",
  bandwidth_quota_gb: "0",
  max_connections: "0",
  popular: false,
  active: true,
};

export function planToInput(plan: ConsolePlan): PlanInput {
  return {
    name: plan.name,
    type: plan.type,
    price: centsToDollars(plan.price_cents),
    features: plan.features.join("\n"),
    bandwidth_quota_gb: String(plan.bandwidth_quota_gb ?? 0),
    max_connections: String(plan.max_connections ?? 0),
    popular: plan.popular,
    active: plan.active,
  };
}

/** The server's field names -> the form's. */
export const SERVER_FIELDS: Record<string, keyof PlanInput> = {
  name: "name",
  type: "type",
  price_cents: "price",
  features: "features",
  bandwidth_quota_gb: "bandwidth_quota_gb",
  max_connections: "max_connections",
  popular: "popular",
  active: "active",
};
