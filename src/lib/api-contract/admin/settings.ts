// System Settings (pb_hooks/settings.pb.js, accounts.pb.js): the settings the console edits,
// with the rules of pb_hooks/lib/settings/setting-rules.js, and the admin invitations
// (make a registration link, list the pending ones, revoke one). Changes are audited.
import * as v from "valibot";
import { catalog } from "../../shared-data";
import { routeList, routesOf } from "../define";
import { DbDate, PagingQuery, listPage } from "./common";

/** A text setting: `required` ones must be sent (not blank); every one is trimmed and at most `max` long. */
function text(label: string, max: number, required?: string, description?: string) {
  const schema = v.pipe(
    v.string(`${label} must be text`),
    v.maxLength(max, `${label} must be at most ${max} characters`),
    v.metadata({ errorCode: "validation_max_length" }),
    v.description(description ?? label),
  );
  return { required, schema };
}
const flag = (label: string) => ({ required: `${label} must be on or off`, schema: v.boolean(`${label} must be on or off`) });
function whole(label: string, max: number, message: string) {
  return {
    required: undefined,
    schema: v.pipe(
      v.number(message),
      v.integer(message),
      v.minValue(0, message),
      v.maxValue(max, message),
      v.metadata({ errorCode: "validation_invalid_value" }),
      v.description(label),
    ),
  };
}
const cents = (label: string, max: number) =>
  whole(label, max, `${label} must be a whole number of cents from 0 to ${max} ($${max / 100})`);

/** Every key the console edits, in the form's order, with its rule. */
const rules = () => ({
  site_name: text("Site name", 100, "Site name is required"),
  site_description: text("Site description", 300, "Site description is required"),
  primary_color: text("Primary color", 7, "Primary color is required", "A hex color like #3B82F6."),
  logo_url: text("Logo URL", 500, undefined, 'An https address or a path on this site ("/logo.svg"); "" for none.'),
  contact_email: text("Email", 255, "Valid email is required", "The public contact e-mail."),
  contact_phone: text("Phone number", 50, "Phone number is required", "Like +1 (555) 010-0199."),
  contact_address: text("Address", 300),
  support_hours: text("Support hours", 100, undefined, "Shown on every public page that states support hours (not blank)."),
  default_support_name: text("Support name", 100, "Support name is required"),
  staff_notification_email: text(
    "Staff notification email",
    255,
    undefined,
    'Where new tickets and contact messages are mailed; "" = contact_email. Not public.',
  ),
  admin_registration_enabled: flag("Admin registration"),
  demo_mode: flag("Demo mode"),
  welcome_credit_cents: cents("Welcome credit", catalog.welcome_credit.max_cents),
  welcome_credit_spendable_cents: cents("Welcome credit spendable before a first purchase", catalog.welcome_credit.max_cents),
  welcome_credits_per_address_per_day: whole(
    "Welcome credits per sign-up address a day",
    catalog.welcome_credit.max_per_address_per_day,
    `Welcome credits per sign-up address a day must be a whole number from 0 (no limit) to ${catalog.welcome_credit.max_per_address_per_day}`,
  ),
  gateway_public_host: text(
    "Gateway public host",
    253,
    undefined,
    'The host name or address customers connect to; "" = the shop\'s host. Public.',
  ),
  gateway_bind_addresses: text(
    "Gateway bind addresses",
    4000,
    undefined,
    "Local addresses Generate spreads direct proxies over (comma or newline separated). Not public.",
  ),
  gateway_allowed_ranges: text(
    "Gateway allowed ranges",
    4000,
    undefined,
    "CIDR ranges the gateway may dial even off loopback (comma or newline separated). Not public.",
  ),
  upstream_offline_after_seconds: whole(
    "Seconds an upstream keeps failing before it leaves stock (and a sold proxy's exit is replaced)",
    86400,
    "Failing upstreams leave stock after a whole number of seconds from 0 to 86400",
  ),
});

type Rules = ReturnType<typeof rules>;
type Entries<K extends keyof Rules> = { [P in K]: Rules[P]["schema"] };

/** The settings as GET and PUT answer them: every key. */
export const ConsoleSettings = /* @__PURE__ */ settingsAnswer();

function settingsAnswer() {
  return v.object(Object.fromEntries(Object.entries(rules()).map(([k, r]) => [k, r.schema])) as Entries<keyof Rules>);
}

type SettingsBody = { [K in keyof Rules]: v.OptionalSchema<v.NullableSchema<Rules[K]["schema"], undefined>, undefined> };
const bodyEntries = /* @__PURE__ */ settingsBody();

function settingsBody(): SettingsBody {
  return Object.fromEntries(
    // A required key left out (or null) is the hook's to refuse: it says "... is required".
    Object.entries(rules()).map(([k, r]) => [k, v.optional(v.nullable(r.schema))]),
  ) as SettingsBody;
}

const settings = routesOf({ base: "/api/admin", tag: "Settings", scope: "admin", params: { id: "The invitation's id." } });

export const getSettings = settings.get("/settings", {
  summary: "The settings System Settings edits",
  response: ConsoleSettings,
});

export const saveSettings = settings.put("/settings", {
  summary: "Save the settings",
  description:
    "Required keys must be sent; an optional key left out (or null) keeps its value; an unknown key is refused. Every public page follows the change. Audited settings.update (only the keys that changed).",
  body: v.pipe(
    v.object(bodyEntries),
    v.examples([
      {
        site_name: "ProxyShop",
        site_description: "Fast, private proxies for every job.",
        primary_color: "#3B82F6",
        contact_email: "support@example.com",
        contact_phone: "+1 (555) 010-0199",
        default_support_name: "Support Team",
        admin_registration_enabled: false,
        demo_mode: false,
        support_hours: "Mon-Fri 9:00-17:00 UTC",
      },
    ]),
  ),
  response: ConsoleSettings,
});

const INVITE_EMAIL = "Enter a valid email address, or leave it empty.";

export const PendingInvitation = v.object({
  id: v.string(),
  email: v.pipe(v.string(), v.description('The only address it registers; "" for any.')),
  expires_at: DbDate,
  created: DbDate,
  created_by: v.nullable(v.object({ id: v.string(), email: v.string(), first_name: v.string(), last_name: v.string() })),
});

export const listInvitations = settings.get("/invitations", {
  summary: "The pending admin invitations (at most 20)",
  query: PagingQuery,
  response: listPage(PendingInvitation),
});

export const createInvitation = settings.post("/invitations", {
  summary: "Make an admin registration link",
  description:
    "Valid 24 hours, for one address or any; 409 while registration is closed or with 20 pending. The link is answered once: only its hash is stored. Audited invitations.create.",
  body: v.pipe(
    v.object({
      email: v.optional(
        v.nullable(
          v.pipe(
            v.string(INVITE_EMAIL),
            v.metadata({ errorCode: "validation_invalid_email" }),
            v.description('"" or left out: any address.'),
          ),
        ),
      ),
    }),
    v.examples([{ email: "new.admin@example.com" }]),
  ),
  response: v.object({
    id: v.string(),
    url: v.pipe(v.string(), v.description("The registration link; shown once.")),
    email: v.nullable(v.string()),
    expires_at: DbDate,
  }),
  errors: [409],
});

export const revokeInvitation = settings.delete("/invitations/{id}", {
  summary: "Revoke a pending admin invitation",
  description: "409 when it was used, revoked or has expired. Audited invitations.revoke.",
  response: v.object({ id: v.string(), revoked_at: DbDate }),
  errors: [409],
});

export const settingsRoutes = routeList({ getSettings, saveSettings, listInvitations, createInvitation, revokeInvitation });
