// What /console/register says while registration is open (the page and form are
// components/admin-account's, shared with /console/setup; the routes are api.ts's).
import type { AdminLinkTexts } from "@/components/admin-account/admin-link-page";

export const INVITATION_TEXTS: AdminLinkTexts = {
  noToken:
    "Administrator accounts are created by invitation only. Ask an administrator of this shop for an invitation link and open it here.",
  checkingTitle: "Admin Registration",
  checkingText: "Checking your invitation...",
  refusedTitle: "Invitation not valid",
  validTitle: "Create Your Admin Account",
  intro: "You were invited to administer this shop.",
  lockedNote: "This invitation is for this address.",
  submitLabel: "Create Admin Account",
};
