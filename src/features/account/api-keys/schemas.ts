// The "Create API key" form: what it checks before sending, mirroring the server's checks
// (lib/api/api-keys.js and the contract's NewApiKey), which stay the truth. The form holds
// texts; its output is the POST body: the expiry as an ISO time, the allowlist as a list, the
// spend cap in whole cents (sent only with the purchase scope).
import * as v from "valibot";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/api-contract/define";
import type { NewApiKey } from "@/features/account/api-keys/api";

/** The scopes offered, in order, each with what it lets a program do. */
export const SCOPES: readonly { scope: ApiKeyScope; label: string; text: string }[] = [
  { scope: "read", label: "Read", text: "See your balance, proxies, usage, orders, transactions, locations and prices." },
  { scope: "purchase", label: "Purchase", text: "Buy and renew proxies and turn auto-renew on or off, spending your balance." },
  { scope: "rotate", label: "Rotate", text: "Give proxies new credentials and change your proxy IP allowlist." },
  { scope: "webhooks", label: "Webhooks", text: "Add, change and remove your webhook endpoints and resend deliveries." },
];

/** The most addresses and ranges a key's allowlist holds (as the account's allowlist). */
export const MAX_ALLOWLIST_ENTRIES = 100;

export const KEY_MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: "Name must be at most 100 characters",
  noScope: "Choose at least one scope",
  expiryPast: "Choose a date from today on, or leave it empty for a key that never expires",
  tooManyEntries: `The list can hold at most ${MAX_ALLOWLIST_ENTRIES} addresses or ranges: use ranges to cover more.`,
  capNotNumber: "Enter the cap in dollars, for example 50 or 12.50",
  capFraction: "The cap cannot have fractions of a cent (at most 2 decimal places)",
  capNotPositive: "The cap must be more than $0.00, or leave it empty for no cap",
  capTooLarge: "The cap can be at most $1,000,000.00",
} as const;

/** The largest monthly cap the server takes ($1,000,000). */
const MAX_CAP_CENTS = 100_000_000;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 address, or an IPv6 address without brackets (the URL parser checks it exactly). */
function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true;
  if (!text.includes(":") || !/^[0-9a-f:.]+$/.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== "";
  } catch {
    return false;
  }
}

/** The message for one allowlist entry, or "" when it is an address or a CIDR range. */
export function allowlistEntryError(raw: string): string {
  const text = raw.trim().toLowerCase();
  const [address = "", prefix, extra] = text.split("/");
  const invalid = `'${raw.trim()}' is not an IP address or CIDR range.`;
  if (extra !== undefined || !isIpAddress(address)) return invalid;
  if (prefix === undefined) return "";
  if (!/^(0|[1-9]\d{0,2})$/.test(prefix) || Number(prefix) > (address.includes(":") ? 128 : 32)) return invalid;
  if (prefix === "0") return `'${raw.trim()}' would let every address in: leave the list empty to allow any address.`;
  return "";
}

/** The allowlist's entries: one per line (commas and spaces separate too), blanks skipped. */
export function allowlistEntries(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/** "12.5" dollars -> 1250 cents; null when empty. */
export function capToCents(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Math.round(Number(trimmed) * 100);
}

/** "yyyy-MM-dd" of `now` in the viewer's time zone (the date input's own format). */
export function localDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A key with an expiry date works until the end of that day, in the viewer's time zone. */
export function expiryTime(date: string): string | null {
  return date ? new Date(`${date}T23:59:59.999`).toISOString() : null;
}

const capError = (text: string): string => {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed)) return KEY_MESSAGES.capNotNumber;
  if (!/^\d*(\.\d{0,2})?$/.test(trimmed)) return KEY_MESSAGES.capFraction;
  if (!(Number(trimmed) > 0)) return KEY_MESSAGES.capNotPositive;
  return (capToCents(trimmed) ?? 0) > MAX_CAP_CENTS ? KEY_MESSAGES.capTooLarge : "";
};

export const NewApiKeySchema = v.pipe(
  v.object({
    name: v.pipe(v.string(), v.trim(), v.nonEmpty(KEY_MESSAGES.nameRequired), v.maxLength(100, KEY_MESSAGES.nameTooLong)),
    // An unticked group gives false, a single ticked box its value: both become a list.
    scopes: v.pipe(
      v.union([v.array(v.picklist(API_KEY_SCOPES)), v.picklist(API_KEY_SCOPES), v.literal(false)]),
      v.transform((value) => (value === false ? [] : Array.isArray(value) ? value : [value])),
      v.minLength(1, KEY_MESSAGES.noScope),
    ),
    expires: v.pipe(
      v.string(),
      v.check((date) => date === "" || date >= localDate(), KEY_MESSAGES.expiryPast),
    ),
    ip_allowlist: v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const entries = allowlistEntries(dataset.value);
        // Every bad line at once (as the server names them), so a pasted list is fixed in one go.
        const bad = entries.map(allowlistEntryError).filter(Boolean);
        if (bad.length > 0) addIssue({ message: bad.join(" ") });
        else if (new Set(entries).size > MAX_ALLOWLIST_ENTRIES) addIssue({ message: KEY_MESSAGES.tooManyEntries });
      }),
    ),
    spend_cap: v.string(),
  }),
  // The cap is checked only with the purchase scope (without it the field is hidden and not sent).
  v.forward(
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || !dataset.value.scopes.includes("purchase")) return;
      const message = capError(dataset.value.spend_cap);
      if (message) addIssue({ message });
    }),
    ["spend_cap"],
  ),
  v.transform(({ name, scopes, expires, ip_allowlist, spend_cap }): NewApiKey => ({
    name,
    scopes,
    expires_at: expiryTime(expires),
    ip_allowlist: allowlistEntries(ip_allowlist),
    spend_cap_cents: scopes.includes("purchase") ? capToCents(spend_cap) : null,
  })),
);

export type NewApiKeyInput = v.InferInput<typeof NewApiKeySchema>;
export type NewApiKeyOutput = v.InferOutput<typeof NewApiKeySchema>;

export const EMPTY_KEY: NewApiKeyInput = { name: "", scopes: ["read"], expires: "", ip_allowlist: "", spend_cap: "" };

/** "Change spend cap": the cap alone, as on the new-key form (empty = no cap). */
export const SpendCapSchema = v.pipe(
  v.object({
    spend_cap: v.pipe(
      v.string(),
      v.check(
        (text) => capError(text) === "",
        (issue) => capError(String(issue.input)),
      ),
    ),
  }),
  v.transform(({ spend_cap }) => ({ spend_cap_cents: capToCents(spend_cap) })),
);

export type SpendCapInput = v.InferInput<typeof SpendCapSchema>;
export type SpendCapOutput = v.InferOutput<typeof SpendCapSchema>;

/** A key's cap as the form writes it: "50.00", "" for none. */
export const capInput = (cents: number | null): string => (cents === null ? "" : (cents / 100).toFixed(2));

/** The form field that shows a server error on each body field. */
export const SERVER_FIELDS = {
  name: "name",
  scopes: "scopes",
  expires_at: "expires",
  ip_allowlist: "ip_allowlist",
  spend_cap_cents: "spend_cap",
} as const satisfies Record<string, keyof NewApiKeyInput>;
