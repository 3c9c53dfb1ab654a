// Webhooks: endpoints, deliveries, secrets (issue #18), their routes.
import type { ApiRoute } from "./define";

export const webhookRoutes: ApiRoute[] = [];
