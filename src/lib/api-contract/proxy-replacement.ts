// Replacing a proxy's IP within its term, and the refund of a proxy whose exit is down
// (issue #28; pb_hooks/lib/proxies/replacement.js).
import * as v from "valibot";
import { exampleOf, routeList, routesOf } from "./define";
import { Cents, Count, Id, Proxy, ProxyType } from "./schemas";

const proxies = routesOf({ tag: "Proxies", scope: "read", params: { id: "The proxy's id." } });

export const ReplacementPreview = v.pipe(
  v.object({
    proxy_id: Id,
    type: ProxyType,
    country: v.pipe(v.string(), v.description("ISO 3166-1 alpha-2: the new exit is in the same place.")),
    state: v.string(),
    city: v.string(),
    in_stock: v.pipe(v.boolean(), v.description("Whether a proxy of this type and place is in stock to take its exit.")),
    replacements_per_term: v.pipe(Count, v.description("Free replacements a term (the plan of the proxy's type sets them).")),
    replacements_used: Count,
    replacements_left: Count,
    counts: v.pipe(v.boolean(), v.description("false while the proxy's exit is down: that replacement is free of the count.")),
    charge_cents: v.pipe(Cents, v.description("Always 0: a replacement costs nothing.")),
  }),
  v.title("ReplacementPreview"),
  v.examples([
    {
      proxy_id: "a1b2c3d4e5f6g7h",
      type: "DATACENTER",
      country: "DE",
      state: "",
      city: "",
      in_stock: true,
      replacements_per_term: 1,
      replacements_used: 0,
      replacements_left: 1,
      counts: true,
      charge_cents: 0,
    },
  ]),
);

export const getProxyReplacement = proxies.get("/proxies/{id}/replacement", {
  summary: "Preview a replacement of a proxy's IP",
  description:
    "What a replacement would give (type and place), whether one is in stock and the free replacements left this term. Changes nothing, charges nothing.",
  response: ReplacementPreview,
});

export const replaceProxy = proxies.post("/proxies/{id}/replace", {
  summary: "Replace a proxy's IP",
  description:
    "The proxy gets the exit of another proxy of the same type and place; its id, username, password and term stay. The gateway follows within a second and cuts open connections. Free, up to the plan's replacements a term (409 when none are left or none is in stock).",
  scope: "rotate",
  idempotency: "required",
  response: v.pipe(
    v.object({ proxy: Proxy, replacement: ReplacementPreview }),
    v.title("ReplacementResult"),
    v.description("The proxy with its new exit, and the preview after the replacement."),
    v.examples([
      { proxy: exampleOf(Proxy), replacement: { ...exampleOf(ReplacementPreview), replacements_used: 1, replacements_left: 0 } },
    ]),
  ),
  errors: [403, 409],
});

export const refundDownProxy = proxies.post("/proxies/{id}/refund", {
  summary: "Refund a proxy whose exit is down",
  description:
    "Only while the proxy's exit is down and no replacement was in stock (its exit_down_at is set): the days left of what its latest order paid come back to your balance (one REFUND row in the ledger, once) and the proxy is no longer yours.",
  scope: "purchase",
  idempotency: "required",
  response: v.pipe(
    v.object({
      proxy_id: Id,
      refunded_cents: Cents,
      balance_cents: v.pipe(v.number(), v.integer(), v.description("Your balance right after the refund.")),
    }),
    v.title("ProxyRefund"),
    v.examples([{ proxy_id: "a1b2c3d4e5f6g7h", refunded_cents: 412, balance_cents: 1912 }]),
  ),
  errors: [403, 409],
});

export const replacementRoutes = routeList({ getProxyReplacement, replaceProxy, refundDownProxy });
