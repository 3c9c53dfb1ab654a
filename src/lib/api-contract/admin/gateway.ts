// The gateway tokens of System Settings' "Proxy gateway" (pb_hooks/gateway.pb.js): a gateway
// on another machine follows the shop with one. The token is answered once; only its hash is
// stored. Changes are audited (with the name, never the token).
import * as v from "valibot";
import { route } from "../define";
import { DbDate, pageEntries, pagingQuery } from "./common";

const TAG = "Gateway";
const ADMIN = "/api/admin" as const;

export const GatewayToken = v.object({
  id: v.string(),
  name: v.string(),
  created: DbDate,
  last_seen_at: v.pipe(DbDate, v.description('"" when never used.')),
  last_address: v.string(),
  in_contact: v.pipe(v.boolean(), v.description("Its gateway called the shop within the last 90 seconds.")),
});

export const listGatewayTokens = route({
  id: "listGatewayTokens",
  method: "GET",
  path: "/gateway-tokens",
  base: ADMIN,
  tag: TAG,
  summary: "The gateway tokens, newest first",
  scope: "admin",
  query: v.object(pagingQuery),
  response: v.object(pageEntries(GatewayToken)),
  errors: [],
});

const NAME_REQUIRED = "Name the gateway (1-100 characters), e.g. eu-1.";

export const createGatewayToken = route({
  id: "createGatewayToken",
  method: "POST",
  path: "/gateway-tokens",
  base: ADMIN,
  tag: TAG,
  summary: "Make a gateway token",
  description: "The name is unique among the tokens (ignoring case and surrounding spaces). Audited gateway_token.create.",
  scope: "admin",
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
  errors: [400, 403],
});

export const revokeGatewayToken = route({
  id: "revokeGatewayToken",
  method: "DELETE",
  path: "/gateway-tokens/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "Revoke a gateway token",
  description: "Its gateway loses the shop and fails closed. Audited gateway_token.revoke.",
  scope: "admin",
  params: { id: "The token's id." },
  response: v.object({ id: v.string(), name: v.string() }),
  errors: [403, 404],
});

export const gatewayRoutes = [listGatewayTokens, createGatewayToken, revokeGatewayToken];
