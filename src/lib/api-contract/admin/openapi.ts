// The console's OpenAPI document (admin-openapi.json): /api/admin and /api/shop, written by
// the developer API's builder (../openapi.ts). Not published (no public route serves it): the
// shop's request validation reads it, and `npm run lint:openapi` lints it like the first.
import { buildDocument, type ErrorTexts, type Json } from "../openapi";
import { AdminError } from "./common";
import { ADMIN_ROUTES, ADMIN_TAGS } from "./index";

const ERROR_TEXT: ErrorTexts = {
  400: "The request is malformed or a field is invalid (see data).",
  401: "Not signed in.",
  403: "Not a shop admin, or refused in demo mode.",
  404: "No such thing.",
  409: "It conflicts with the current state (see message).",
  410: "The link was used, revoked or has expired.",
  422: "The Idempotency-Key was already used for a different request.",
  429: "Too many requests from this address: wait a moment.",
};

/** The console's document; `serverUrl` is the shop's address. */
export function adminOpenApiDocument(serverUrl = "http://127.0.0.1:8090"): Json {
  return buildDocument(
    {
      routes: ADMIN_ROUTES,
      named: { Error: AdminError },
      error: { schema: "Error", mediaType: "application/json" },
      errorText: ERROR_TEXT,
      tags: ADMIN_TAGS,
      info: {
        title: "Proxy shop console API",
        version: "1",
        description:
          "The routes of the admin console (/api/admin: a signed-in shop admin only; every change audited) and the public account routes (/api/shop). Failures answer PocketBase's error: {status, message, data: {field: {code, message}}}. Not published.",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      security: [{ session: [] }],
      securitySchemes: {
        session: { type: "http", scheme: "bearer", description: "A shop admin's session token (what the console uses)." },
      },
    },
    serverUrl,
  );
}
