// What every public page is rendered from: the site settings, the active plans and how many
// countries are in stock.
import { MAX_WELCOME_CREDIT_CENTS, type ProxyType } from "@/lib/catalog";
import type { PricingPlanRecord } from "@/lib/pocketbase-types";
import { defaultSettings } from "@/lib/shared-data";

/** Kept here for the modules that name a plan's type from the site content. */
export type { ProxyType };

/** A plan as the public pages carry it: the record's own fields. */
export type PricingPlan = Pick<PricingPlanRecord, "id" | "name" | "type" | "price_cents" | "features" | "popular" | "active">;

/**
 * Every settings key with its default value (text, booleans as "true"/"false"). The list
 * lives beside the hooks: the default-content migration writes exactly these rows.
 */
export type SiteSettings = typeof defaultSettings;

export interface SiteContent {
  settings: SiteSettings;
  /** Active plans, cheapest first. */
  plans: PricingPlan[];
  /** Countries with a proxy in stock (GET /api/shop/stock-summary); 0 when none or unknown. */
  stockCountries: number;
}

export const DEFAULT_SETTINGS: SiteSettings = defaultSettings;

/**
 * The welcome credit new accounts get on verifying their e-mail, as the public pages word
 * it ("$5", "$2.50"), or null when the welcome_credit_cents setting turns it off.
 */
export function welcomeCredit(settings: SiteSettings): string | null {
  const cents = Math.min(Number.parseInt(settings.welcome_credit_cents, 10), MAX_WELCOME_CREDIT_CENTS);
  if (!(cents > 0)) return null;
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

export const DEFAULT_CONTENT: SiteContent = { settings: DEFAULT_SETTINGS, plans: [], stockCountries: 0 };

const HEX_COLOR = /^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i;

/** Settings an admin may leave blank (no logo, no postal address): blank means none, not the default. */
const OPTIONAL_KEYS = new Set(["logo_url", "contact_address"]);

/** Merges stored key/value rows over the defaults; blank (unless optional) or malformed values keep the default. */
export function settingsFromRows(rows: ReadonlyArray<{ key: string; value: string }>): SiteSettings {
  const settings: SiteSettings = { ...DEFAULT_SETTINGS };
  for (const { key, value } of rows) {
    if (!(key in settings) || typeof value !== "string") continue;
    if (value.trim() === "" && !OPTIONAL_KEYS.has(key)) continue;
    if (key === "primary_color" && !HEX_COLOR.test(value.trim())) continue;
    settings[key as keyof SiteSettings] = value.trim();
  }
  return settings;
}

function channelLuminance(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function parseHex(hex: string): [number, number, number] {
  let h = hex.trim().replace(/^#/, "");
  if (h.length === 3) h = [...h].map((c) => c + c).join("");
  const n = Number.parseInt(h, 16);
  return Number.isNaN(n) || h.length !== 6 ? [59, 130, 246] : [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG contrast ratio of a colour against white. */
export function contrastWithWhite(hex: string): number {
  const [r, g, b] = parseHex(hex);
  const l = 0.2126 * channelLuminance(r) + 0.7152 * channelLuminance(g) + 0.0722 * channelLuminance(b);
  return 1.05 / (l + 0.05);
}

/**
 * The brand colour darkened just enough that white text on it (buttons) and it as text
 * on white both reach WCAG AA (4.5:1), with a margin for light tinted backgrounds
 * (slate-50). A colour that already passes is returned as is.
 */
export function accessibleBrand(hex: string): string {
  const [r, g, b] = parseHex(hex);
  const toHex = (f: number) =>
    `#${[r, g, b]
      .map((c) =>
        Math.round(c * f)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
  for (let f = 1; f > 0; f -= 0.02) {
    const candidate = toHex(f);
    if (contrastWithWhite(candidate) >= 5) return candidate;
  }
  return "#000000";
}

/** The inline style every layout puts on <html>: the brand colour and its accessible shade. */
export function brandStyle(primaryColor: string): string {
  return `--brand:${primaryColor};--brand-strong:${accessibleBrand(primaryColor)}`;
}
