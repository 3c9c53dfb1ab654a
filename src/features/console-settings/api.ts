// System Settings calls: the admin routes of pb_hooks/console-settings.pb.js.
import { pb } from "@/lib/pocketbase";

/** The settings as GET/PUT /api/admin/settings answer them (PUT takes the same shape). */
export interface ConsoleSettings {
  site_name: string;
  site_description: string;
  primary_color: string;
  logo_url: string;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
  /** Shown on every public page that states support hours. */
  support_hours: string;
  default_support_name: string;
  /** Where new tickets and contact messages are mailed; "" = contact_email. Not public. */
  staff_notification_email: string;
  admin_registration_enabled: boolean;
  demo_mode: boolean;
  welcome_credit_cents: number;
  /** How much of the welcome credit buys proxies before a first Stripe payment (cents). */
  welcome_credit_spendable_cents: number;
  /** Welcome credits granted a day to accounts signed up from one address; 0 = no limit. */
  welcome_credits_per_address_per_day: number;
  /** The host name or address customers connect to (every proxy's host); "" = the shop's host. Public. */
  gateway_public_host: string;
  /** Local addresses Generate spreads direct proxies over (comma or newline separated); "" = none. Not public. */
  gateway_bind_addresses: string;
  /** CIDR ranges the gateway may dial even when it listens beyond loopback (comma or newline separated). Not public. */
  gateway_allowed_ranges: string;
}

export interface CreatedInvitation {
  id: string;
  /** The registration link; shown once, only its hash is stored. */
  url: string;
  email: string | null;
  expires_at: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  expires_at: string;
  created: string;
  created_by: { id: string; email: string; first_name: string; last_name: string } | null;
}

export interface InvitationPage {
  items: PendingInvitation[];
  page: number;
  perPage: number;
  totalItems: number;
  totalPages: number;
}

/** Pending links are capped at 20 by the server, so one page holds them all. */
export const INVITATIONS_PER_PAGE = 20;

export function fetchSettings(signal?: AbortSignal): Promise<ConsoleSettings> {
  return pb().send<ConsoleSettings>("/api/admin/settings", { method: "GET", requestKey: null, ...(signal ? { signal } : {}) });
}

export function saveSettings(settings: ConsoleSettings): Promise<ConsoleSettings> {
  return pb().send<ConsoleSettings>("/api/admin/settings", {
    method: "PUT",
    body: { ...settings },
    requestKey: null,
  });
}

export function fetchInvitations(page: number, signal?: AbortSignal): Promise<InvitationPage> {
  return pb().send<InvitationPage>("/api/admin/invitations", {
    method: "GET",
    query: { page, perPage: INVITATIONS_PER_PAGE },
    requestKey: null,
    ...(signal ? { signal } : {}),
  });
}

export function createInvitation(email: string): Promise<CreatedInvitation> {
  return pb().send<CreatedInvitation>("/api/admin/invitations", {
    method: "POST",
    body: email ? { email } : {},
    requestKey: null,
  });
}

export function revokeInvitation(id: string): Promise<{ id: string; revoked_at: string }> {
  return pb().send(`/api/admin/invitations/${encodeURIComponent(id)}`, { method: "DELETE", requestKey: null });
}
