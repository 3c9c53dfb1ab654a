// What the shop sells: the places in stock and the prices.
import * as v from "valibot";
import { routeList, routesOf } from "./define";
import { Cents, Count, ProxyType } from "./schemas";

const catalog = routesOf({ tag: "Catalog", scope: "read" });

export const listLocations = catalog.get("/locations", {
  summary: "Places in stock, with prices",
  description: "One row per type and place with proxies available now; only types for sale.",
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
    v.examples([
      {
        items: [
          {
            type: "RESIDENTIAL",
            country: "US",
            country_name: "United States",
            state: "California",
            city: "Los Angeles",
            available: 25,
            unit_price_cents: 500,
          },
        ],
      },
    ]),
  ),
});

export const getPricing = catalog.get("/pricing", {
  summary: "Prices of each proxy type",
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
    v.examples([
      {
        term_days: 30,
        items: [{ type: "RESIDENTIAL", for_sale: true, unit_price_cents: 500, bandwidth_quota_gb: 0, max_connections: 0 }],
      },
    ]),
  ),
});

export const catalogRoutes = routeList({ listLocations, getPricing });
