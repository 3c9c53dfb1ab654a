// Activity: the customer's own log (issue #18), its routes.
import type { ApiRoute } from "./define";

export const activityRoutes: ApiRoute[] = [];
