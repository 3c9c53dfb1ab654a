// Admin registration by invitation: the public routes of pb_hooks/console-settings.pb.js
// (called by components/admin-account).
import type { AdminLinkRoutes } from "@/components/admin-account/api";

export const INVITATION_ROUTES: AdminLinkRoutes = {
  check: "/api/shop/admin-invitations/check",
  create: "/api/shop/admin-register",
  // unknown 404, used/revoked/expired 410, registration closed 403
  refusals: [403, 404, 410],
};
