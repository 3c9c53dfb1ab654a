// Admin registration by invitation: the contract's public routes checkAdminInvitation and
// registerAdmin (@/lib/api-contract/admin/shop), called by components/admin-account.
import type { AdminLinkRoutes } from "@/components/admin-account/api";
import { checkAdminInvitation, registerAdmin } from "@/lib/api-contract/admin/shop";
import { requestOf } from "@/lib/api-contract/client";

export const INVITATION_ROUTES: AdminLinkRoutes = {
  check: requestOf(checkAdminInvitation).path,
  create: requestOf(registerAdmin).path,
  // unknown 404, used/revoked/expired 410, registration closed 403
  refusals: [403, 404, 410],
};
