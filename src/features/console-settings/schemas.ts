// The System Settings form (admin spec 5, "System settings messages"). The server
// (pb_hooks/lib/settings/console-settings.js) checks the same rules with the same messages; these
// give instant feedback.
import * as v from "valibot";
import { MAX_WELCOME_CREDIT_CENTS, MAX_WELCOME_CREDITS_PER_ADDRESS } from "@/lib/catalog";
import type { ConsoleSettings } from "@/features/console-settings/api";

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const PHONE = /^\+?[0-9][0-9 ()./-]{2,}(?:\s*(?:ext\.?|x)\s*[0-9]{1,6})?$/i;
const LOGO_URL = /^(?:https:\/\/[^\s/]+(?:\/\S*)?|\/(?!\/)\S*)$/i;
const DOLLARS = /^\d{1,3}(?:\.\d{1,2})?$/;
const WHOLE = /^\d{1,4}$/;
/** The longest wait before a failing upstream leaves stock (a day). */
const MAX_UPSTREAM_OFFLINE_SECONDS = 86400;

/** The largest welcome credit the server accepts, in whole dollars ($100). */
export const MAX_WELCOME_DOLLARS = MAX_WELCOME_CREDIT_CENTS / 100;

const dollars = (message: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check((value) => DOLLARS.test(value) && Math.round(Number(value) * 100) <= MAX_WELCOME_CREDIT_CENTS, message),
  );

const text = (max: number, label: string) => v.pipe(v.string(), v.trim(), v.maxLength(max, `${label} must be at most ${max} characters`));

const required = (max: number, label: string, message: string) => v.pipe(text(max, label), v.nonEmpty(message));

const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 address, or an IPv6 address without brackets (the URL parser checks it exactly). */
function isIpAddress(value: string): boolean {
  if (IPV4.test(value)) return true;
  if (!/^[0-9a-f:.]+$/.test(value) || !value.includes(":")) return false;
  try {
    return new URL(`http://[${value}]/`).hostname !== "";
  } catch {
    return false;
  }
}

/** "10.0.0.0/8" or "fd00::/8": an address and a prefix length that fits it. */
function isCidr(value: string): boolean {
  const [address = "", prefix, extra] = value.split("/");
  if (prefix === undefined || extra !== undefined || !/^(0|[1-9]\d{0,2})$/.test(prefix) || !isIpAddress(address)) return false;
  return Number(prefix) <= (address.includes(":") ? 128 : 32);
}

/**
 * A list typed one per line or separated by commas or spaces, as the server stores it: IPv6
 * brackets dropped, lower case, no duplicates.
 */
export function listItems(value: string): string[] {
  const items: string[] = [];
  for (const raw of value.split(/[\s,]+/)) {
    const item = raw
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, "$1");
    if (item && !items.includes(item)) items.push(item);
  }
  return items;
}

/** The server's message for the entries of a list that are not addresses (or ranges); "" when all are. */
function ipListProblem(label: string, kind: "address" | "range", value: string): string {
  const bad = listItems(value).filter((item) => !(kind === "address" ? isIpAddress(item) : isCidr(item)));
  if (bad.length === 0) return "";
  const what = kind === "address" ? "an IP address" : "a CIDR range (address/prefix)";
  const example = kind === "address" ? "203.0.113.10, 2001:db8::10" : "10.0.0.0/8, 2001:db8::/32";
  return `${label}: ${bad.slice(0, 3).join(", ")} ${bad.length === 1 ? "is not" : "are not"} ${what}; write them like ${example}, or leave it empty`;
}

// The server's messages (pb_hooks/lib/settings/setting-rules.js).
export const GATEWAY_PUBLIC_HOST_MESSAGE =
  "Gateway public host must be a host name or an IP address (like proxy.example.com), or empty for the shop's own host";

/** An address list's check, with the server's message naming the entries that are wrong. */
const ipList = (label: string, kind: "address" | "range") =>
  v.pipe(
    text(4000, label),
    v.check(
      (value) => ipListProblem(label, kind, value) === "",
      (issue) => ipListProblem(label, kind, String(issue.input)),
    ),
  );

export const SettingsFormSchema = v.object({
  site_name: required(100, "Site name", "Site name is required"),
  site_description: required(300, "Site description", "Site description is required"),
  primary_color: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("Primary color is required"),
    v.regex(HEX_COLOR, "Primary color must be a hex color like #3B82F6"),
  ),
  logo_url: v.pipe(
    text(500, "Logo URL"),
    v.check((value) => value === "" || LOGO_URL.test(value), "Logo URL must start with https:// or / (a file on this site)"),
  ),
  contact_email: v.pipe(v.string(), v.trim(), v.email("Valid email is required"), v.maxLength(255, "Valid email is required")),
  contact_phone: v.pipe(
    required(50, "Phone number", "Phone number is required"),
    v.regex(PHONE, "Enter a phone number like +1 (555) 010-0199"),
  ),
  contact_address: text(300, "Address"),
  support_hours: required(100, "Support hours", "Support hours are required"),
  default_support_name: required(100, "Support name", "Support name is required"),
  staff_notification_email: v.pipe(
    text(255, "Staff notification email"),
    v.check(
      (value) => value === "" || v.is(v.pipe(v.string(), v.email()), value),
      "Staff notification email must be a valid email, or empty",
    ),
  ),
  gateway_public_host: v.pipe(
    text(253, "Gateway public host"),
    v.check((value) => {
      const host = value.toLowerCase().replace(/^\[(.*)\]$/, "$1");
      return host === "" || (host.includes(":") ? isIpAddress(host) : HOST_NAME.test(host));
    }, GATEWAY_PUBLIC_HOST_MESSAGE),
  ),
  gateway_bind_addresses: ipList("Gateway bind addresses", "address"),
  gateway_allowed_ranges: ipList("Gateway allowed ranges", "range"),
  /** Seconds as typed (issue #28): how long an upstream keeps failing before it leaves stock. */
  upstream_offline_after_seconds: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) => /^\d{1,5}$/.test(value) && Number(value) <= MAX_UPSTREAM_OFFLINE_SECONDS,
      `Failing upstreams leave stock after a whole number of seconds from 0 to ${MAX_UPSTREAM_OFFLINE_SECONDS}`,
    ),
  ),
  admin_registration_enabled: v.boolean(),
  demo_mode: v.boolean(),
  /** Dollars as typed ("5", "2.50"). */
  welcome_credit: dollars(`Welcome credit must be between $0 and $${MAX_WELCOME_DOLLARS}`),
  /** Dollars as typed; at or above the welcome credit = all of it. */
  welcome_credit_spendable: dollars(`Spendable welcome credit must be between $0 and $${MAX_WELCOME_DOLLARS}`),
  /** A whole number as typed; 0 = no limit. */
  welcome_credits_per_address_per_day: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (value) => WHOLE.test(value) && Number(value) <= MAX_WELCOME_CREDITS_PER_ADDRESS,
      `Welcome credits per sign-up address a day must be a whole number from 0 (no limit) to ${MAX_WELCOME_CREDITS_PER_ADDRESS}`,
    ),
  ),
});
export type SettingsFormInput = v.InferInput<typeof SettingsFormSchema>;
export type SettingsFormOutput = v.InferOutput<typeof SettingsFormSchema>;

/** The form's values for stored settings. */
export function toFormValues(settings: ConsoleSettings): SettingsFormInput {
  const {
    welcome_credit_cents,
    welcome_credit_spendable_cents,
    welcome_credits_per_address_per_day,
    upstream_offline_after_seconds,
    ...rest
  } = settings;
  return {
    ...rest,
    upstream_offline_after_seconds: String(upstream_offline_after_seconds ?? 120),
    // A server that predates the gateway settings answers without them.
    gateway_public_host: rest.gateway_public_host ?? "",
    gateway_bind_addresses: rest.gateway_bind_addresses ?? "",
    gateway_allowed_ranges: rest.gateway_allowed_ranges ?? "",
    welcome_credit: (welcome_credit_cents / 100).toFixed(2),
    welcome_credit_spendable: (welcome_credit_spendable_cents / 100).toFixed(2),
    welcome_credits_per_address_per_day: String(welcome_credits_per_address_per_day),
  };
}

/** The PUT body for checked form values (dollars to whole cents by rounding). */
export function toSettings(values: SettingsFormOutput): ConsoleSettings {
  const { welcome_credit, welcome_credit_spendable, welcome_credits_per_address_per_day, upstream_offline_after_seconds, ...rest } = values;
  return {
    ...rest,
    upstream_offline_after_seconds: Number(upstream_offline_after_seconds),
    welcome_credit_cents: Math.round(Number(welcome_credit) * 100),
    welcome_credit_spendable_cents: Math.round(Number(welcome_credit_spendable) * 100),
    welcome_credits_per_address_per_day: Number(welcome_credits_per_address_per_day),
  };
}

/** Server field names the form shows errors under (welcome_credit_cents is typed as dollars). */
export function formField(serverField: string): keyof SettingsFormInput | null {
  if (serverField === "welcome_credit_cents") return "welcome_credit";
  if (serverField === "welcome_credit_spendable_cents") return "welcome_credit_spendable";
  return serverField in SettingsFormSchema.entries ? (serverField as keyof SettingsFormInput) : null;
}

/** "#abc" or "#AABBCC" as the 6-digit lower-case form a colour input takes; null when not a colour. */
export function colorInputValue(hex: string): string | null {
  const value = hex.trim();
  if (!HEX_COLOR.test(value)) return null;
  const digits = value.slice(1).toLowerCase();
  return `#${digits.length === 3 ? [...digits].map((c) => c + c).join("") : digits}`;
}

export const InvitationSchema = v.object({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.check((value) => value === "" || v.is(v.pipe(v.string(), v.email()), value), "Enter a valid email address, or leave it empty"),
  ),
});
export type InvitationInput = v.InferInput<typeof InvitationSchema>;
export type InvitationOutput = v.InferOutput<typeof InvitationSchema>;
