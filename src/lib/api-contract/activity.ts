// Activity: the customer's own log (issue #18), its routes.
import * as v from "valibot";
import { routeList, routesOf } from "./define";
import { Id, Timestamp, page, pageQuery, periodQuery } from "./schemas";

/** What an activity row is about (account_activity.kind). */
export const ACTIVITY_KINDS = [
  "sign_in",
  "password_changed",
  "email_changed",
  "api_key_created",
  "api_key_changed",
  "api_key_revoked",
  "api_key_spent",
  "webhook_created",
  "webhook_updated",
  "webhook_deleted",
  "webhook_secret_rotated",
  "purchase",
  "renewal",
  "credentials_rotated",
  "ip_allowlist_changed",
  "proxy_replaced",
  "proxy_exit_down",
  "proxy_exit_refund",
  "proxy_assigned",
] as const;

export const ActivityKind = v.picklist(ACTIVITY_KINDS);
export type ActivityKindValue = (typeof ACTIVITY_KINDS)[number];

export const Activity = v.pipe(
  v.object({
    id: Id,
    kind: ActivityKind,
    summary: v.pipe(v.string(), v.description('What happened, as Settings → Activity shows it ("Signed in with a password").')),
    ip: v.pipe(v.string(), v.description('The address it was done from; "" when the shop did it or a job.')),
    user_agent: v.pipe(v.string(), v.description("The browser or client that did it (at most 300 characters).")),
    api_key_name: v.pipe(v.string(), v.description('The API key it was done with; "" for a signed-in session.')),
    created: Timestamp,
  }),
  v.title("Activity"),
  v.description("One thing that happened to your account."),
  v.examples([
    {
      id: "a8e2i6m1q5u9y3c",
      kind: "sign_in",
      summary: "Signed in with a password",
      ip: "203.0.113.7",
      user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0",
      api_key_name: "",
      created: "2026-11-27T12:40:27Z",
    },
  ]),
);

const activity = routesOf({ tag: "Activity", scope: "read" });

export const listActivity = activity.get("/activity", {
  summary: "Your account's activity",
  description:
    "Sign-ins (address and agent), password and e-mail changes, API keys made, spent with and revoked, webhook changes, purchases, renewals, credential rotations and IP allowlist changes; newest first.",
  query: v.object({
    kind: v.optional(ActivityKind),
    ...periodQuery,
    ...pageQuery,
  }),
  response: page(Activity, "ActivityPage"),
});

export const activityRoutes = routeList({ listActivity });
