// What the shop sells: the places in stock and the prices.
import * as v from "valibot";
import { route } from "./define";
import { Cents, Count, ProxyType } from "./schemas";

const TAG = "Catalog";

export const listLocations = route({
  id: "listLocations",
  method: "GET",
  path: "/locations",
  tag: TAG,
  summary: "Places in stock, with prices",
  description: "One row per type and place with proxies available now; only types for sale.",
  scope: "read",
  query: v.object({ type: v.optional(ProxyType) }),
  response: v.pipe(
    v.object({
      items: v.array(
        v.object({
          type: ProxyType,
          country: v.string(),
          country_name: v.string(),
          state: v.string(),
          city: v.string(),
          available: Count,
          unit_price_cents: Cents,
        }),
      ),
    }),
    v.title("Locations"),
  ),
  errors: [400],
});

export const getPricing = route({
  id: "getPricing",
  method: "GET",
  path: "/pricing",
  tag: TAG,
  summary: "Prices of each proxy type",
  scope: "read",
  response: v.pipe(
    v.object({
      term_days: Count,
      items: v.array(
        v.object({
          type: ProxyType,
          for_sale: v.boolean(),
          unit_price_cents: v.pipe(Cents, v.description("For one proxy and one term; 0 when not for sale.")),
          bandwidth_quota_gb: v.pipe(Count, v.description("A month; 0 = none.")),
          max_connections: v.pipe(Count, v.description("0 = no cap.")),
        }),
      ),
    }),
    v.title("Pricing"),
  ),
  errors: [],
});

export const catalogRoutes = [listLocations, getPricing];
