// The first administrator's setup link: the public routes of pb_hooks/admin-setup.pb.js
// (called by components/admin-account).
import type { AdminLinkRoutes } from "@/components/admin-account/api";

export const SETUP_ROUTES: AdminLinkRoutes = {
  check: "/api/setup/check",
  create: "/api/setup/admin",
  // unknown 404, used or expired 410
  refusals: [404, 410],
};
