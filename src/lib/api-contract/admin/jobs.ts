// The shop's scheduled jobs, run at once (pb_hooks/proxies.pb.js, events.pb.js): a
// PocketBase superuser's only (tests and operators use them instead of waiting for the cron).
import * as v from "valibot";
import { routeList, routesOf } from "../define";
import { Count } from "./common";

const SUPERUSER = "A PocketBase superuser's only (not a shop admin's).";

const jobs = routesOf({ base: "/api/admin", tag: "Jobs", scope: "admin" });

export const runProxyExpiryJob = jobs.post("/jobs/proxy-expiry", {
  summary: "Run the expiry job now",
  description: `Auto-renewals, expiries, releases to stock, expiry reminders and abandoned checkouts, and what it did. ${SUPERUSER}`,
  response: v.object({
    renewed: Count,
    renewal_failures: Count,
    expired: Count,
    released: Count,
    reminded: Count,
    abandoned_checkouts: Count,
  }),
});

export const runWebhookEventsJob = jobs.post("/jobs/webhook-events", {
  summary: "Run the webhook events job now",
  description: `The quota announcements (proxy.quota_reached), and how many it sent. ${SUPERUSER}`,
  response: v.object({ quota_reached: Count }),
});

export const runUpstreamHealthJob = jobs.post("/jobs/upstream-health", {
  summary: "Run the upstream health job now",
  description: `Failing upstreams off sale and back, dead exits of sold proxies replaced or marked down, and what it did. ${SUPERUSER}`,
  response: v.object({ withdrawn: Count, returned: Count, replaced: Count, down: Count, recovered: Count }),
});

export const jobRoutes = routeList({ runProxyExpiryJob, runWebhookEventsJob, runUpstreamHealthJob });
