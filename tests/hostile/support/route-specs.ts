// What the hostile fuzz suite knows of each custom route: who may call it, whether it is
// keyed or reads a body, the ids to try, a plausible body and field values sure to be
// refused. fuzz.test.ts fails when a route in pb_hooks has no spec here.
//
// The specs live beside this file by area (route-specs-shop.ts, -admin.ts, -v1.ts), their
// vocabulary in route-spec-kit.ts.
import { ADMIN_ROUTE_SPECS } from "./route-specs-admin.ts";
import { SHOP_ROUTE_SPECS } from "./route-specs-shop.ts";
import { V1_ROUTE_SPECS } from "./route-specs-v1.ts";
import type { RouteSpec } from "./route-spec-kit.ts";

export const ROUTES: Record<string, RouteSpec> = { ...SHOP_ROUTE_SPECS, ...ADMIN_ROUTE_SPECS, ...V1_ROUTE_SPECS };
