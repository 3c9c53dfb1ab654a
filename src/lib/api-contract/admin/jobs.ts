// The shop's scheduled jobs, run at once (pb_hooks/proxies.pb.js, events.pb.js): a
// PocketBase superuser's only (tests and operators use them instead of waiting for the cron).
import * as v from "valibot";
import { route } from "../define";
import { Count } from "./common";

const TAG = "Jobs";
const ADMIN = "/api/admin" as const;
const SUPERUSER = "A PocketBase superuser's only (not a shop admin's).";

export const runProxyExpiryJob = route({
  id: "runProxyExpiryJob",
  method: "POST",
  path: "/jobs/proxy-expiry",
  base: ADMIN,
  tag: TAG,
  summary: "Run the expiry job now",
  description: `Auto-renewals, expiries, releases to stock, expiry reminders and abandoned checkouts, and what it did. ${SUPERUSER}`,
  scope: "admin",
  response: v.object({
    renewed: Count,
    renewal_failures: Count,
    expired: Count,
    released: Count,
    reminded: Count,
    abandoned_checkouts: Count,
  }),
  errors: [],
});

export const runWebhookEventsJob = route({
  id: "runWebhookEventsJob",
  method: "POST",
  path: "/jobs/webhook-events",
  base: ADMIN,
  tag: TAG,
  summary: "Run the webhook events job now",
  description: `The quota announcements (proxy.quota_reached), and how many it sent. ${SUPERUSER}`,
  scope: "admin",
  response: v.object({ quota_reached: Count }),
  errors: [],
});

export const runUpstreamHealthJob = route({
  id: "runUpstreamHealthJob",
  method: "POST",
  path: "/jobs/upstream-health",
  base: ADMIN,
  tag: TAG,
  summary: "Run the upstream health job now",
  description: `Failing upstreams off sale and back, dead exits of sold proxies replaced or marked down, and what it did. ${SUPERUSER}`,
  scope: "admin",
  response: v.object({ withdrawn: Count, returned: Count, replaced: Count, down: Count, recovered: Count }),
  errors: [],
});

export const jobRoutes = [runProxyExpiryJob, runWebhookEventsJob, runUpstreamHealthJob];
