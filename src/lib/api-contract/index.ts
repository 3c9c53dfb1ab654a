// The developer API (/api/v1): every route in one list. The OpenAPI document, the API key
// middleware's scope table and the islands' types all come from here.
import { accountRoutes } from "./account";
import { activityRoutes } from "./activity";
import { affiliateRoutes } from "./affiliate";
import { catalogRoutes } from "./catalog";
import { creditRoutes } from "./credits";
import { route, type ApiRoute } from "./define";
import { keyRoutes } from "./keys";
import { moneyRoutes } from "./money";
import { proxyRoutes } from "./proxies";
import { replacementRoutes } from "./proxy-replacement";
import { stripeRoutes } from "./stripe";
import { supportRoutes } from "./support";
import { webhookRoutes } from "./webhooks";
import * as v from "valibot";

export const getOpenApiDocument = route({
  id: "getOpenApiDocument",
  method: "GET",
  path: "/openapi.json",
  tag: "Meta",
  summary: "This document",
  scope: "public",
  response: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("The OpenAPI 3.1 document of /api/v1."),
    v.examples([{ openapi: "3.1.0", info: { title: "Proxy shop API", version: "1" }, paths: {} }]),
  ),
  errors: [],
});

export const API_ROUTES: readonly ApiRoute[] = [
  ...accountRoutes,
  ...proxyRoutes,
  ...replacementRoutes,
  ...catalogRoutes,
  ...moneyRoutes,
  ...keyRoutes,
  ...webhookRoutes,
  ...activityRoutes,
  ...affiliateRoutes,
  ...creditRoutes,
  ...supportRoutes,
  ...stripeRoutes,
  getOpenApiDocument,
];

export * from "./define";
