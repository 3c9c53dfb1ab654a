// Activity: the customer's own log (issue #18), its routes.
import * as v from "valibot";
import { route, type ApiRoute } from "./define";
import { Id, Timestamp, page, pageQuery } from "./schemas";

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
);

const dateQuery = (what: string) => v.optional(v.pipe(v.string(), v.description(`${what}: ISO 8601; a date alone is its UTC midnight.`)));

export const listActivity = route({
  id: "listActivity",
  method: "GET",
  path: "/activity",
  tag: "Activity",
  summary: "Your account's activity",
  description:
    "Sign-ins (address and agent), password and e-mail changes, API keys made, spent with and revoked, webhook changes, purchases, renewals, credential rotations and IP allowlist changes; newest first.",
  scope: "read",
  query: v.object({
    kind: v.optional(ActivityKind),
    from: dateQuery("From (inclusive)"),
    to: dateQuery("To (exclusive)"),
    ...pageQuery,
  }),
  response: page(Activity, "ActivityPage"),
  errors: [400],
});

export const activityRoutes: ApiRoute[] = [listActivity];
