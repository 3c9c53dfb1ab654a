// The Buy Proxies form (spec section 5). Mirrors validatePurchase in
// pocketbase/pb_hooks/lib/proxies/purchase.js, which stays the server's truth.
import * as v from "valibot";
import { MAX_PURCHASE_QUANTITY, MAX_PURCHASE_QUANTITY_MESSAGE, PROXY_TYPES } from "@/lib/catalog";

export const QuantitySchema = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty("Quantity must be at least 1"),
  v.transform(Number),
  v.number("Quantity must be a whole number"),
  v.integer("Quantity must be a whole number"),
  v.minValue(1, "Quantity must be at least 1"),
  v.maxValue(MAX_PURCHASE_QUANTITY, MAX_PURCHASE_QUANTITY_MESSAGE),
);

/** The form's values as typed (quantity is the text of its input). */
export const ProxyPurchaseSchema = v.object({
  // Any of the five types; the server sells those with an active plan (or a built-in price).
  type: v.picklist(PROXY_TYPES, "Choose a proxy type"),
  country: v.pipe(v.string(), v.trim(), v.nonEmpty("Country is required")),
  state: v.pipe(v.string(), v.trim()),
  city: v.pipe(v.string(), v.trim()),
  quantity: QuantitySchema,
});

export type ProxyPurchaseInput = v.InferInput<typeof ProxyPurchaseSchema>;
export type ProxyPurchaseOutput = v.InferOutput<typeof ProxyPurchaseSchema>;

export type PurchaseField = "type" | "country" | "state" | "city" | "quantity";

/** The first message per field, as the form shows them under each control. */
export function purchaseErrors(input: ProxyPurchaseInput): Partial<Record<PurchaseField, string>> {
  const result = v.safeParse(ProxyPurchaseSchema, input);
  if (result.success) return {};
  const nested = v.flatten<typeof ProxyPurchaseSchema>(result.issues).nested ?? {};
  const out: Partial<Record<PurchaseField, string>> = {};
  for (const [field, list] of Object.entries(nested)) {
    if (list?.[0]) out[field as PurchaseField] = list[0];
  }
  return out;
}

/** The quantity as a whole number, or null when it is not a valid one (1-100). */
export function parseQuantity(text: string): number | null {
  const result = v.safeParse(QuantitySchema, text);
  return result.success ? result.output : null;
}
