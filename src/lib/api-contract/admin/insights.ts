// The console's figures (pb_hooks/reports.pb.js, audit.pb.js): the Overview, Analytics over a
// period, and the audit log with its summary.
import * as v from "valibot";
import { route } from "../define";
import { TRANSACTION_TYPES } from "../money";
import { Count, DbDate, Int, Percent, listPage, pagingQuery, person, searchQuery } from "./common";

const ADMIN = "/api/admin" as const;

const Traffic = {
  bytes_up: Count,
  bytes_down: Count,
  bytes: Count,
  connections: v.pipe(
    Count,
    v.description("Authorised attempts through the gateways to reach a target: connections_ok + connections_failed."),
  ),
  failed_connections: v.pipe(Count, v.description("Those that did not reach their target (connections_failed).")),
};

const Refused = v.pipe(
  Count,
  v.description("Clients answered 407 or 429 (credentials, quota, concurrency): never connections, counted apart."),
);

/** A figure of the period against the one before it, with the caption the server words. */
export const Growth = v.object({
  current: v.number(),
  previous: v.number(),
  change_percent: v.pipe(Percent, v.description("Null when there was nothing before.")),
  caption: v.pipe(v.string(), v.description('"+12% vs previous 30 days", "No change" or "New".')),
});

export const getOverview = route({
  id: "getOverview",
  method: "GET",
  path: "/overview",
  base: ADMIN,
  tag: "Reports",
  summary: "The Overview's figures",
  scope: "admin",
  response: v.object({
    total_users: Count,
    total_revenue_cents: v.pipe(Int, v.description("Stripe payments kept (minus refunds and lost disputes).")),
    test_payments_cents: v.pipe(Int, v.description("Test-provider payments: no money moved, never revenue.")),
    active_proxies: Count,
    recent_transactions: v.array(
      v.object({
        id: v.string(),
        user_id: v.string(),
        user_email: v.string(),
        type: v.picklist(TRANSACTION_TYPES),
        amount_cents: Int,
        description: v.string(),
        created: DbDate,
      }),
    ),
    gateway_today: v.object({
      ...Traffic,
      connections_ok: Count,
      connections_failed: Count,
      connections_refused: Refused,
      success_rate_percent: Percent,
    }),
    traffic_month: v.pipe(Growth, v.description("Proxy traffic (bytes) this month so far against the same days of last month.")),
  }),
  errors: [],
});

export const getSystemAlerts = route({
  id: "getSystemAlerts",
  method: "GET",
  path: "/system-alerts",
  base: ADMIN,
  tag: "Reports",
  summary: "What the Overview's System Alerts read: failing upstreams, silent gateways, failed payments, waiting tickets, growth",
  scope: "admin",
  response: v.object({
    checked_at: DbDate,
    failing_upstreams: v.object({
      count: Count,
      items: v.pipe(
        v.array(
          v.object({
            id: v.string(),
            upstream_host: v.string(),
            upstream_port: Int,
            status: v.string(),
            error: v.string(),
            failed_at: DbDate,
          }),
        ),
        v.description("The five longest failing, as the gateway reported them (it clears a mark when the upstream answers again)."),
      ),
    }),
    silent_gateways: v.pipe(
      v.array(v.object({ id: v.string(), name: v.string(), last_seen_at: v.pipe(v.string(), v.description('"" when never seen.')) })),
      v.description("Gateway tokens the shop has not heard from for 90 seconds or more."),
    ),
    failed_payments: v.object({ count: Count, amount_cents: Int, since: v.pipe(DbDate, v.description("24 hours ago.")) }),
    waiting_tickets: v.object({
      count: v.pipe(Count, v.description("Open or pending tickets whose customer wrote last.")),
      oldest_at: v.pipe(v.string(), v.description('The oldest one\'s last message; "" when none waits.')),
    }),
    growth: v.object({
      customers: v.pipe(Growth, v.description("New customers this month so far against the same days of last month.")),
      traffic: v.pipe(Growth, v.description("Proxy traffic (bytes) this month so far against the same days of last month.")),
    }),
  }),
  errors: [],
});

export const ANALYTICS_PERIODS = ["7", "30", "90"] as const;

const GatewayUptime = v.object({
  gateway: v.string(),
  up_seconds: Count,
  seconds: v.pipe(Count, v.description("From the period's start (or the gateway's first report) until now.")),
  since: DbDate,
  uptime_percent: Percent,
});

export const getAnalytics = route({
  id: "getAnalytics",
  method: "GET",
  path: "/analytics",
  base: ADMIN,
  tag: "Reports",
  summary: "Analytics over the last 7, 30 or 90 days",
  scope: "admin",
  query: v.object({
    days: v.optional(
      v.pipe(
        v.picklist(ANALYTICS_PERIODS, "Days must be 7, 30 or 90."),
        v.metadata({ errorCode: "validation_invalid_period" }),
        v.description("Default 30."),
      ),
    ),
  }),
  response: v.object({
    days: Int,
    total_users: Count,
    total_revenue_cents: Int,
    test_payments_cents: Int,
    total_proxies: Count,
    avg_revenue_per_user_cents: Int,
    period_new_users: Count,
    period_revenue_cents: Int,
    user_growth: v.array(v.object({ date: v.string(), count: Count })),
    revenue: v.array(v.object({ date: v.string(), cents: Int })),
    proxy_usage: v.object({
      by_type: v.record(v.string(), Count),
      by_country: v.array(v.object({ country: v.string(), count: Count })),
    }),
    growth: v.object({ users: Growth, revenue: Growth, proxies: Growth, avg_revenue_per_user: Growth }),
    performance: v.object({
      connections_ok: Count,
      connections_failed: Count,
      connections_refused: Refused,
      success_rate_percent: Percent,
      connect_ms_histogram: v.pipe(v.array(Count), v.description("Counts per bucket: upper bounds 1, 2, 5 ... 5000 ms, then slower.")),
      median_connect: v.nullable(v.object({ at_most_ms: v.nullable(Int), over_ms: v.nullable(Int) })),
      uptime_percent: Percent,
      gateways: v.array(GatewayUptime),
      traffic: v.object(Traffic),
      traffic_growth: Growth,
      connections_growth: Growth,
    }),
  }),
  errors: [400],
});

export const AuditEntry = v.object({
  id: v.string(),
  action: v.string(),
  target_type: v.string(),
  target_id: v.string(),
  details: v.unknown(),
  created: DbDate,
  admin_id: v.string(),
  ...person("admin"),
  target_label: v.pipe(v.string(), v.description('What a sentence names the target by; "" when unknown.')),
  target_name: v.pipe(v.string(), v.description('A person\'s name beside the label, else "".')),
  target_deleted: v.pipe(v.boolean(), v.description("The target (of a known kind) no longer exists.")),
});

export const listAuditLogs = route({
  id: "listAuditLogs",
  method: "GET",
  path: "/audit-logs",
  base: ADMIN,
  tag: "Audit log",
  summary: "Audit log entries, newest first",
  scope: "admin",
  query: v.object({
    search: searchQuery,
    action: v.optional(v.pipe(v.string(), v.description('One action ("users.admin_grant"); "" for all.'))),
    ...pagingQuery,
  }),
  response: listPage(AuditEntry),
  errors: [400],
});

export const getAuditSummary = route({
  id: "getAuditSummary",
  method: "GET",
  path: "/audit-logs/summary",
  base: ADMIN,
  tag: "Audit log",
  summary: "Entries today and this week, active admins, the gateways' uptime, the actions logged",
  scope: "admin",
  response: v.object({
    today: Count,
    this_week: Count,
    active_admins: Count,
    uptime_percent: v.pipe(Percent, v.description("The gateways' uptime over the last 7 days; null before any gateway reported.")),
    actions: v.array(v.string()),
  }),
  errors: [],
});

export const insightRoutes = [getOverview, getSystemAlerts, getAnalytics, listAuditLogs, getAuditSummary];
