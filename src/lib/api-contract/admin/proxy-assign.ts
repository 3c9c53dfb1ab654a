// Proxy Management's assignments (issue #28; pb_hooks/lib/proxies/assign.js): an Available
// proxy given to a customer with an order at the admin's price ($0 included), and a
// customer's proxy swapped to another exit of the same type and place. Both audited.
import * as v from "valibot";
import { routeList, routesOf } from "../define";
import { AdminProxyDetail } from "./proxies";

const inventory = routesOf({ base: "/api/admin", tag: "Proxies", scope: "admin", params: { id: "The proxy's id." } });
const PRICE = "Price must be a whole number of cents from 0 to 1000000";

export const assignInventoryProxy = inventory.post("/proxies/{id}/assign", {
  summary: "Assign an Available proxy to a customer",
  description:
    "The proxy becomes the customer's for a term with an order at price_cents: 0 writes the order only, a price is charged to the customer's balance as one PROXY_PURCHASE ledger row (refused when the balance does not cover it). Audited proxies.assign.",
  idempotency: "required",
  body: v.pipe(
    v.object({
      user_id: v.pipe(v.string(), v.minLength(1, "Choose the customer"), v.description("The customer's users id.")),
      price_cents: v.pipe(v.number(PRICE), v.integer(PRICE), v.minValue(0, PRICE), v.maxValue(1_000_000, PRICE)),
    }),
    v.examples([
      { user_id: "u1v2w3x4y5z6a7b", price_cents: 0 },
      { user_id: "u1v2w3x4y5z6a7b", price_cents: 450 },
    ]),
  ),
  response: v.object({
    order_id: v.string(),
    order_number: v.string(),
    user_id: v.string(),
    price_cents: v.number(),
    transaction_id: v.pipe(v.string(), v.description('The ledger row that charged it; "" at $0.')),
    proxy: AdminProxyDetail,
  }),
  errors: [403, 409],
});

export const replaceInventoryProxy = inventory.post("/proxies/{id}/replace", {
  summary: "Swap a customer's proxy to another exit",
  description:
    "The customer's proxy gets the exit of an Available proxy of the same type and place (409 when none is in stock); its username, password and term stay. Free, not counted against the customer's replacements. Audited proxies.replace.",
  response: AdminProxyDetail,
  errors: [403, 409],
});

export const assignRoutes = routeList({ assignInventoryProxy, replaceInventoryProxy });
