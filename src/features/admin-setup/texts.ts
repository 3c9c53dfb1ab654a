// What /console/setup?token=... says: the first administrator of a shop on a real host, with
// the one-time link `proxy-shop admin create <email>` or the start banner prints (the page
// and form are components/admin-account's, shared with /console/register; the routes are
// api.ts's).
import type { AdminLinkTexts } from "@/components/admin-account/admin-link-page";

export const SETUP_TEXTS: AdminLinkTexts = {
  noToken:
    "This page needs a setup link. On the server, run `proxy-shop admin create <email>` (or `npm run admin:create -- <email>` in a checkout) and open the link it prints within 30 minutes.",
  checkingTitle: "Shop Setup",
  checkingText: "Checking your setup link...",
  refusedTitle: "Setup link not valid",
  validTitle: "Create the First Administrator",
  intro: "This shop has no administrator yet.",
  lockedNote: "This setup link is for this address.",
  submitLabel: "Create Administrator",
};
