// The gateway tokens of System Settings' "Proxy gateway" (pb_hooks/gateway.pb.js): a gateway
// on another machine follows the shop with one. The token is answered once; only its hash is
// stored. Changes are audited (with the name, never the token).
import * as v from "valibot";
import { routeList, routesOf } from "../define";
import { DbDate, PagingQuery, listPage } from "./common";

export const GatewayToken = v.object({
  id: v.string(),
  name: v.string(),
  created: DbDate,
  last_seen_at: v.pipe(DbDate, v.description('"" when never used.')),
  last_address: v.string(),
  in_contact: v.pipe(v.boolean(), v.description("Its gateway called the shop within the last 90 seconds.")),
});

const NAME_REQUIRED = "Name the gateway (1-100 characters), e.g. eu-1.";

const gateway = routesOf({ base: "/api/admin", tag: "Gateway", scope: "admin", params: { id: "The token's id." } });

export const listGatewayTokens = gateway.get("/gateway-tokens", {
  summary: "The gateway tokens, newest first",
  query: PagingQuery,
  response: listPage(GatewayToken),
});

export const createGatewayToken = gateway.post("/gateway-tokens", {
  summary: "Make a gateway token",
  description: "The name is unique among the tokens (ignoring case and surrounding spaces). Audited gateway_token.create.",
  body: v.pipe(
    v.object({
      name: v.pipe(
        v.string(NAME_REQUIRED),
        v.minLength(1, NAME_REQUIRED),
        v.maxLength(100, "The name must be at most 100 characters."),
        // eslint-disable-next-line no-control-regex -- control characters are what it refuses
        v.regex(/^[^\x00-\x1f\x7f]*$/, "The name must be one line of text, without control characters."),
        v.metadata({ errorCode: "validation_required" }),
      ),
    }),
    v.examples([{ name: "eu-1" }]),
  ),
  response: v.object({
    id: v.string(),
    name: v.string(),
    token: v.pipe(v.string(), v.description('"gwt_" and 40 letters and digits: shown once.')),
    pb_url: v.pipe(v.string(), v.description("The shop's address the gateway follows (SHOP_APP_URL).")),
  }),
});

export const revokeGatewayToken = gateway.delete("/gateway-tokens/{id}", {
  summary: "Revoke a gateway token",
  description: "Its gateway loses the shop and fails closed. Audited gateway_token.revoke.",
  response: v.object({ id: v.string(), name: v.string() }),
});

export const gatewayRoutes = routeList({ listGatewayTokens, createGatewayToken, revokeGatewayToken });
