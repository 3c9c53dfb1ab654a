// The /api/admin route matrix's table (admin-routes.test.ts): every route with the call an
// admin makes to it, its body and the audit action a change writes.
import { randomUUID } from "node:crypto";
/** What one call needs: ids of fresh rows, made before each phase. */
export interface Targets {
  userId: string;
  userEmail: string;
  /** A customer the delete-on-request route erases. */
  doomedUserId: string;
  doomedUserEmail: string;
  orderId: string;
  proxyId: string;
  doomedProxyId: string;
  ticketId: string;
  affiliateId: string;
  referralId: string;
  invitationId: string;
  gatewayTokenId: string;
}

export interface Route {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The path as the route table (pb_hooks/lib/api/routes.js) declares it. */
  route: string;
  /** The path to call, with ids filled in and a query. */
  url: (t: Targets) => string;
  body?: (t: Targets) => unknown;
  /** The audit action an admin's call writes (changes only). */
  audit?: string;
  /** Sends an Idempotency-Key. */
  keyed?: boolean;
}

const settingsBody = (siteName: string) => ({
  site_name: siteName,
  site_description: "Proxies for the matrix test.",
  primary_color: "#3B82F6",
  contact_email: "matrix@example.com",
  contact_phone: "+1 555 010 0100",
  default_support_name: "Support Team",
  admin_registration_enabled: true,
  demo_mode: false,
});

export const ROUTES: Route[] = [
  { method: "GET", route: "/api/admin/overview", url: () => "/api/admin/overview" },
  { method: "GET", route: "/api/admin/system-alerts", url: () => "/api/admin/system-alerts" },
  { method: "GET", route: "/api/admin/users", url: () => "/api/admin/users?search=api.test&role=users" },
  { method: "GET", route: "/api/admin/users/{id}", url: (t) => `/api/admin/users/${t.userId}` },
  {
    method: "POST",
    route: "/api/admin/users/{id}/admin",
    url: (t) => `/api/admin/users/${t.userId}/admin`,
    body: (t) => ({ is_admin: true, confirm_email: t.userEmail }),
    audit: "users.admin_grant",
  },
  // The user tools, in an order where each call changes something: the new address is
  // unverified, so the mail can be resent and the address marked verified.
  {
    method: "POST",
    route: "/api/admin/users/{id}/email",
    url: (t) => `/api/admin/users/${t.userId}/email`,
    body: (t) => ({ email: `moved-${t.userEmail}` }),
    audit: "users.email_change",
  },
  {
    method: "POST",
    route: "/api/admin/users/{id}/verification",
    url: (t) => `/api/admin/users/${t.userId}/verification`,
    body: () => ({}),
    audit: "users.verification_resend",
  },
  {
    method: "POST",
    route: "/api/admin/users/{id}/verify",
    url: (t) => `/api/admin/users/${t.userId}/verify`,
    body: () => ({}),
    audit: "users.verify",
  },
  {
    method: "POST",
    route: "/api/admin/users/{id}/suspension",
    url: (t) => `/api/admin/users/${t.userId}/suspension`,
    body: () => ({ suspended: true }),
    audit: "users.suspend",
  },
  {
    method: "POST",
    route: "/api/admin/users/{id}/delete",
    url: (t) => `/api/admin/users/${t.doomedUserId}/delete`,
    body: (t) => ({ confirm_email: t.doomedUserEmail }),
    audit: "users.erase",
  },
  {
    method: "POST",
    route: "/api/admin/users/{id}/balance",
    url: (t) => `/api/admin/users/${t.userId}/balance`,
    body: () => ({ transaction_type: "CREDIT", amount_cents: 250, description: "Matrix credit" }),
    audit: "users.balance_credit",
    keyed: true,
  },
  {
    method: "POST",
    route: "/api/admin/orders/{id}/refund",
    url: (t) => `/api/admin/orders/${t.orderId}/refund`,
    body: () => ({ reason: "Matrix refund" }),
    audit: "proxy_orders.refund",
    keyed: true,
  },
  { method: "GET", route: "/api/admin/proxies", url: () => "/api/admin/proxies?status=AVAILABLE&type=RESIDENTIAL" },
  { method: "GET", route: "/api/admin/proxies/stats", url: () => "/api/admin/proxies/stats" },
  { method: "GET", route: "/api/admin/proxies/locations", url: () => "/api/admin/proxies/locations" },
  { method: "GET", route: "/api/admin/proxies/{id}", url: (t) => `/api/admin/proxies/${t.proxyId}` },
  {
    method: "PATCH",
    route: "/api/admin/proxies/{id}",
    url: (t) => `/api/admin/proxies/${t.proxyId}`,
    body: () => ({ upstream_port: 20000 + Math.floor(Math.random() * 40000) }),
    audit: "proxies.update",
  },
  { method: "DELETE", route: "/api/admin/proxies/{id}", url: (t) => `/api/admin/proxies/${t.doomedProxyId}`, audit: "proxies.delete" },
  {
    method: "POST",
    route: "/api/admin/proxies/generate",
    url: () => "/api/admin/proxies/generate",
    body: () => ({ type: "DATACENTER", country: "US", quantity: 2 }),
    audit: "proxies.generate",
  },
  {
    method: "POST",
    route: "/api/admin/proxies/import",
    url: () => "/api/admin/proxies/import",
    body: () => ({ text: `matrix-${randomUUID().slice(0, 8)}.test:8080:user:secret` }),
    audit: "proxies.import",
  },
  { method: "GET", route: "/api/admin/support/tickets", url: () => "/api/admin/support/tickets?status=open" },
  { method: "GET", route: "/api/admin/support/tickets/{id}", url: (t) => `/api/admin/support/tickets/${t.ticketId}` },
  { method: "GET", route: "/api/admin/analytics", url: () => "/api/admin/analytics?days=7" },
  { method: "GET", route: "/api/admin/audit-logs", url: () => "/api/admin/audit-logs?action=users.balance_credit" },
  { method: "GET", route: "/api/admin/audit-logs/summary", url: () => "/api/admin/audit-logs/summary" },
  { method: "GET", route: "/api/admin/affiliates", url: () => "/api/admin/affiliates" },
  { method: "GET", route: "/api/admin/affiliates/{id}/referrals", url: (t) => `/api/admin/affiliates/${t.affiliateId}/referrals` },
  {
    method: "POST",
    route: "/api/admin/referrals/{id}/pay",
    url: (t) => `/api/admin/referrals/${t.referralId}/pay`,
    audit: "referrals.pay",
    keyed: true,
  },
  { method: "GET", route: "/api/admin/settings", url: () => "/api/admin/settings" },
  {
    method: "PUT",
    route: "/api/admin/settings",
    url: () => "/api/admin/settings",
    body: () => settingsBody(`Matrix Shop ${randomUUID().slice(0, 6)}`),
    audit: "settings.update",
  },
  { method: "GET", route: "/api/admin/invitations", url: () => "/api/admin/invitations" },
  {
    method: "POST",
    route: "/api/admin/invitations",
    url: () => "/api/admin/invitations",
    body: () => ({}),
    audit: "invitations.create",
  },
  {
    method: "DELETE",
    route: "/api/admin/invitations/{id}",
    url: (t) => `/api/admin/invitations/${t.invitationId}`,
    audit: "invitations.revoke",
  },
  { method: "GET", route: "/api/admin/gateway-tokens", url: () => "/api/admin/gateway-tokens" },
  {
    method: "POST",
    route: "/api/admin/gateway-tokens",
    url: () => "/api/admin/gateway-tokens",
    body: () => ({ name: `matrix-${randomUUID().slice(0, 8)}` }),
    audit: "gateway_token.create",
  },
  {
    method: "DELETE",
    route: "/api/admin/gateway-tokens/{id}",
    url: (t) => `/api/admin/gateway-tokens/${t.gatewayTokenId}`,
    audit: "gateway_token.revoke",
  },
];

/** The superuser-only job runners are not console routes: superusers only. */
