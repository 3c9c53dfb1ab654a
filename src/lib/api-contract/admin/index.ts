// The console's routes (/api/admin, a shop admin's only) and the public account routes
// (/api/shop): every route in one list. The second OpenAPI document (admin-openapi.json, not
// published: the shop's request validation reads it) and the console's types come from here.
import type { ApiRoute } from "../define";
import { affiliateRoutes } from "./affiliates";
import { gatewayRoutes } from "./gateway";
import { insightRoutes } from "./insights";
import { jobRoutes } from "./jobs";
import { inventoryRoutes } from "./proxies";
import { assignRoutes } from "./proxy-assign";
import { settingsRoutes } from "./settings";
import { shopRoutes } from "./shop";
import { supportRoutes } from "./support";
import { userRoutes } from "./users";

export const ADMIN_ROUTES: readonly ApiRoute[] = [
  ...userRoutes,
  ...inventoryRoutes,
  ...assignRoutes,
  ...affiliateRoutes,
  ...insightRoutes,
  ...supportRoutes,
  ...settingsRoutes,
  ...gatewayRoutes,
  ...jobRoutes,
  ...shopRoutes,
];

/** What each group of routes is for, in the document's headings. */
export const ADMIN_TAGS: Record<string, string> = {
  Users: "User Management: users, their rights, the user tools, balances and refunds.",
  Proxies: "Proxy Management: the inventory, editing, generating and importing proxies.",
  Affiliates: "Affiliate Management: affiliates, their referrals and payouts.",
  Reports: "The Overview and Analytics.",
  "Audit log": "Every admin action, as the server wrote it.",
  Support: "The Support Tickets inbox.",
  Settings: "System Settings and admin invitations.",
  Gateway: "Tokens for gateways on other machines.",
  Jobs: "The scheduled jobs, run at once (superusers).",
  "Sign-up": "Public: creating an account, and an administrator's by invitation.",
  Catalog: "Public: the stock figure of the public pages.",
};
