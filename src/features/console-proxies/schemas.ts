// The console proxy forms (admin spec 5): generate, edit and import. They mirror the
// server's checks (pb_hooks/lib/proxies/inventory-edit.js, generate.js, import.js) for instant feedback; the server's
// messages still land on the fields.
import * as v from "valibot";
import { CATALOG, MAX_GENERATE, PROXY_TYPES } from "@/lib/catalog";
import type { ProxyStatus } from "@/lib/pocketbase-types";

export const PROXY_STATUSES: readonly ProxyStatus[] = ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"];

export const STATUS_LABELS: Record<ProxyStatus, string> = {
  AVAILABLE: "Available",
  ASSIGNED: "Assigned",
  EXPIRED: "Expired",
  MAINTENANCE: "Maintenance",
};

export const MAX_IMPORT_LINES = CATALOG.inventory.max_import_lines;
export const DEFAULT_PORT = "8080";

const HOST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
// Roughly an IPv6 address; the server checks it exactly (pb_hooks/lib/proxies/import-lines.js isIpv6).
const IPV6_LIKE = /^[0-9a-f:.]+$/;
const HOST_RULE = "Host must be a host name, an IPv4 address or an IPv6 address";
const USERNAME = /^[\x21-\x39\x3b-\x7e]+$/;
const PASSWORD = /^[^\s:]+$/u;

const wholeNumber = (required: string, min: number, max: number, range: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(required),
    v.regex(/^\d+$/, range),
    v.transform(Number),
    v.minValue(min, range),
    v.maxValue(max, range),
  );

export const GenerateSchema = v.object({
  type: v.picklist(PROXY_TYPES, "Choose a proxy type"),
  quantity: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("Quantity is required"),
    // A negative whole number is a whole number: it is refused as "at least 1" (issue #15).
    v.regex(/^-?\d+$/, "Quantity must be a whole number"),
    v.transform(Number),
    v.minValue(1, "Quantity must be at least 1"),
    v.maxValue(MAX_GENERATE, CATALOG.inventory.max_generate_message),
  ),
  country: v.pipe(v.string(), v.nonEmpty("Country is required")),
  state: v.string(),
  city: v.string(),
});
export type GenerateInput = v.InferInput<typeof GenerateSchema>;
export type GenerateOutput = v.InferOutput<typeof GenerateSchema>;
export const EMPTY_GENERATE: GenerateInput = { type: "RESIDENTIAL", quantity: "", country: "", state: "", city: "" };

export const EditSchema = v.object({
  host: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.transform((host) => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host)),
    v.nonEmpty("Host is required"),
    v.maxLength(253, HOST_RULE),
    v.check((host) => (host.includes(":") ? IPV6_LIKE.test(host) : HOST.test(host)), HOST_RULE),
  ),
  port: wholeNumber("Port is required", 1, 65535, "Port must be a whole number from 1 to 65535"),
  username: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty("Username is required"),
    v.maxLength(100, "Username must be at most 100 characters"),
    v.regex(USERNAME, "Username may use visible ASCII characters except spaces and colons"),
  ),
  password: v.pipe(
    v.string(),
    v.nonEmpty("Password is required"),
    v.maxLength(255, "Password must be at most 255 characters"),
    v.regex(PASSWORD, "Password cannot contain spaces or colons"),
  ),
  status: v.picklist(PROXY_STATUSES, "Choose a status"),
});
export type EditInput = v.InferInput<typeof EditSchema>;
export type EditOutput = v.InferOutput<typeof EditSchema>;

/** Non-blank lines of an import text (what the server counts against its limit). */
export function importLineCount(text: string): number {
  let n = 0;
  for (const line of text.split(/\r\n|\n|\r/)) if (line.trim()) n++;
  return n;
}

/** "10,000": the import limit as the texts state it. */
export const MAX_IMPORT_TEXT = MAX_IMPORT_LINES.toLocaleString("en-US");

export const ImportSchema = v.object({
  text: v.pipe(
    v.string(),
    v.check(
      (text) => importLineCount(text) <= MAX_IMPORT_LINES,
      (issue) =>
        `Too many lines: ${importLineCount(String(issue.input))}. Import at most ${MAX_IMPORT_TEXT} proxies at once; split the file and import the parts one after another.`,
    ),
  ),
  type: v.picklist(["", ...PROXY_TYPES]),
  country: v.string(),
});
export type ImportInput = v.InferInput<typeof ImportSchema>;
export type ImportOutput = v.InferOutput<typeof ImportSchema>;
export const EMPTY_IMPORT: ImportInput = { text: "", type: "", country: "" };
