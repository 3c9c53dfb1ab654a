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
  const { welcome_credit_cents, welcome_credit_spendable_cents, welcome_credits_per_address_per_day, ...rest } = settings;
  return {
    ...rest,
    welcome_credit: (welcome_credit_cents / 100).toFixed(2),
    welcome_credit_spendable: (welcome_credit_spendable_cents / 100).toFixed(2),
    welcome_credits_per_address_per_day: String(welcome_credits_per_address_per_day),
  };
}

/** The PUT body for checked form values (dollars to whole cents by rounding). */
export function toSettings(values: SettingsFormOutput): ConsoleSettings {
  const { welcome_credit, welcome_credit_spendable, welcome_credits_per_address_per_day, ...rest } = values;
  return {
    ...rest,
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
