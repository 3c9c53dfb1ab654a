// The console proxy forms (admin spec 5): generate, edit and import. They mirror the
// server's checks (pb_hooks/lib/proxies/edit-rules.js, generate.js, import.js) for instant feedback; the server's
// messages still land on the fields.
import * as v from "valibot";
import { PROXY_EXITS } from "@/lib/api-contract/admin/proxies";
import { INVENTORY_LIMITS, MAX_GENERATE, PROXY_TYPES } from "@/lib/catalog";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import type { ProxyEdit, ProxyExit } from "@/features/console-proxies/api";

export const PROXY_STATUSES: readonly ProxyStatus[] = ["AVAILABLE", "ASSIGNED", "EXPIRED", "MAINTENANCE"];

export const STATUS_LABELS: Record<ProxyStatus, string> = {
  AVAILABLE: "Available",
  ASSIGNED: "Assigned",
  EXPIRED: "Expired",
  MAINTENANCE: "Maintenance",
};

export const MAX_IMPORT_LINES = INVENTORY_LIMITS.max_import_lines;

const HOST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
// The characters of an IPv6 address (isIpAddress checks it exactly).
const IPV6_LIKE = /^[0-9a-f:.]+$/;
const USERNAME = /^[\x21-\x39\x3b-\x7e]+$/;
const PASSWORD = /^[^\s:]+$/u;

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
    v.maxValue(MAX_GENERATE, INVENTORY_LIMITS.max_generate_message),
  ),
  country: v.pipe(v.string(), v.nonEmpty("Country is required")),
  state: v.string(),
  city: v.string(),
});
export type GenerateInput = v.InferInput<typeof GenerateSchema>;
export type GenerateOutput = v.InferOutput<typeof GenerateSchema>;
export const EMPTY_GENERATE: GenerateInput = { type: "RESIDENTIAL", quantity: "", country: "", state: "", city: "" };

export { PROXY_EXITS };

export const EXIT_LABELS: Record<ProxyExit, string> = {
  direct: "Direct from the gateway",
  upstream: "Through an upstream proxy",
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 address, or an IPv6 address without brackets (the URL parser checks it exactly). */
export function isIpAddress(text: string): boolean {
  if (IPV4.test(text)) return true;
  if (!text.includes(":") || !IPV6_LIKE.test(text)) return false;
  try {
    return new URL(`http://[${text}]/`).hostname !== "";
  } catch {
    return false;
  }
}

/** A host as typed: trimmed, lower case, an IPv6 address without its brackets. */
const hostText = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.transform((host) => (host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host)),
);

/** A GB as quotas count it (2^30 bytes, like the gateway). */
export const GB = 2 ** 30;
/** A MB as quotas count it (2^20 bytes): a quota may be given in MB, a 500 MB trial (issue #28). */
export const MB = 2 ** 20;
export const QUOTA_UNITS = ["GB", "MB"] as const;
export type QuotaUnit = (typeof QUOTA_UNITS)[number];

// The server's messages (pb_hooks/lib/proxies/edit-rules.js, endpoints.js).
export const EDIT_MESSAGES = {
  bandwidthQuota: "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)",
  bandwidthQuotaMb: "Bandwidth quota must be a whole number of MB from 0 to 1,024,000,000 (0 = unlimited)",
  maxConnections: "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)",
  bindAddress: "Bind address must be an IP address of the gateway's machine (IPv4 or IPv6), or empty",
  upstreamHostRequired: "Upstream host is required for an upstream exit",
  upstreamHost: "Upstream host must be a host name, an IPv4 address or an IPv6 address",
  upstreamPortRequired: "Upstream port is required for an upstream exit",
  upstreamPort: "Upstream port must be a whole number from 1 to 65535",
  upstreamUsernameRequired: "Upstream username is required for an upstream exit",
  upstreamUsernameLength: "Upstream username must be at most 100 characters",
  upstreamUsername: "Upstream username may use visible ASCII characters except spaces and colons",
  upstreamPasswordRequired: "Upstream password is required for an upstream exit",
  upstreamPasswordLength: "Upstream password must be at most 255 characters",
  upstreamPasswordCharacters: "Upstream password cannot contain spaces or control characters",
  upstreamPasswordColons: "Upstream password cannot contain colons",
} as const;

/** Visible characters a sealed password may hold (pb_hooks/lib/proxies/credentials.js passwordProblem). */
const PASSWORD_CHARACTERS = /^[\x21-\x7e\u00a1-\uffff]+$/;

/** What is wrong with an upstream host ("" when fine). */
function upstreamHostProblem(host: string): string {
  if (!host) return EDIT_MESSAGES.upstreamHostRequired;
  if (host.length > 253 || !(host.includes(":") ? isIpAddress(host) : HOST.test(host))) return EDIT_MESSAGES.upstreamHost;
  return "";
}

function upstreamPortProblem(port: string): string {
  if (!port) return EDIT_MESSAGES.upstreamPortRequired;
  return /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535 ? "" : EDIT_MESSAGES.upstreamPort;
}

function upstreamUsernameProblem(username: string): string {
  if (!username) return EDIT_MESSAGES.upstreamUsernameRequired;
  if (username.length > 100) return EDIT_MESSAGES.upstreamUsernameLength;
  return USERNAME.test(username) ? "" : EDIT_MESSAGES.upstreamUsername;
}

/** A blank password keeps the stored one; without one stored, it is required. */
function upstreamPasswordProblem(password: string, stored: boolean): string {
  if (!password) return stored ? "" : EDIT_MESSAGES.upstreamPasswordRequired;
  if (password.length > 255) return EDIT_MESSAGES.upstreamPasswordLength;
  if (!PASSWORD_CHARACTERS.test(password)) return EDIT_MESSAGES.upstreamPasswordCharacters;
  return password.includes(":") ? EDIT_MESSAGES.upstreamPasswordColons : "";
}

/** What is wrong with a quota as typed in `unit` ("" when fine): a whole number, blank = 0 (unlimited). */
export function quotaProblem(text: string, unit: QuotaUnit): string {
  const [max, message] = unit === "MB" ? [1_024_000_000, EDIT_MESSAGES.bandwidthQuotaMb] : [1_000_000, EDIT_MESSAGES.bandwidthQuota];
  return text === "" || (/^\d{1,10}$/.test(text) && Number(text) <= max) ? "" : message;
}

/** A stored quota as the form shows it: whole GB in GB, anything else in MB. */
export function quotaFields(bytes: number): { bandwidth_quota: string; bandwidth_quota_unit: QuotaUnit } {
  return bytes % GB === 0
    ? { bandwidth_quota: String(bytes / GB), bandwidth_quota_unit: "GB" }
    : { bandwidth_quota: String(bytes / MB), bandwidth_quota_unit: "MB" };
}

/** A limit as typed: a whole number from 0 to `max` (blank is 0, unlimited). */
function limitText(max: number, message: string) {
  return v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => text === "" || (/^\d{1,7}$/.test(text) && Number(text) <= max), message),
  );
}

const EditFields = v.object({
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
  exit: v.picklist(PROXY_EXITS, "Choose where the traffic leaves"),
  bind_address: v.pipe(
    hostText,
    v.check((address) => address === "" || isIpAddress(address), EDIT_MESSAGES.bindAddress),
  ),
  upstream_host: hostText,
  upstream_port: v.pipe(v.string(), v.trim()),
  upstream_username: v.pipe(v.string(), v.trim()),
  upstream_password: v.string(),
  bandwidth_quota: v.pipe(v.string(), v.trim()),
  bandwidth_quota_unit: v.picklist(QUOTA_UNITS),
  max_connections: limitText(100_000, EDIT_MESSAGES.maxConnections),
});

/**
 * What is wrong with the customer's password as typed ("" when fine), beyond its characters:
 * a new one needs the catalog's minimum length, the one the proxy has (`stored`) is kept as it is
 * (pb_hooks/lib/proxies/credentials.js proxyPasswordProblem).
 */
export function proxyPasswordProblem(password: string, stored: string): string {
  return password.length < INVENTORY_LIMITS.min_proxy_password_length && password !== stored
    ? INVENTORY_LIMITS.min_proxy_password_message
    : "";
}

type UpstreamField = "upstream_host" | "upstream_port" | "upstream_username" | "upstream_password";

/** An upstream field's check, made only when the exit is an upstream proxy; its message lands on the field. */
function upstreamCheck(field: UpstreamField, problem: (value: string) => string) {
  return v.forward<v.InferInput<typeof EditFields>, v.PartialCheckIssue<v.InferInput<typeof EditFields>>, [UpstreamField]>(
    v.partialCheck(
      [["exit"], [field]],
      (input: EditOutput) => input.exit !== "upstream" || !problem(input[field]),
      (issue) => problem(issue.input[field]),
    ),
    [field],
  );
}

/**
 * The edit form: the customer's credentials (a new password at least as long as the
 * catalog's minimum; the stored one may stay), the status, and the exit (direct with an
 * optional bind address, or an upstream whose password is write-only: blank keeps the
 * stored one, so it is required only when none is stored). The upstream fields are checked
 * only when the exit is an upstream proxy; each message lands on its field.
 */
export function editSchema(upstreamHasPassword: boolean, storedPassword = "") {
  const passwordProblem = (password: string) => upstreamPasswordProblem(password, upstreamHasPassword);
  return v.pipe(
    EditFields,
    v.forward(
      v.partialCheck(
        [["password"]],
        (input) => !proxyPasswordProblem(input.password, storedPassword),
        (issue) => proxyPasswordProblem(issue.input.password, storedPassword),
      ),
      ["password"],
    ),
    upstreamCheck("upstream_host", upstreamHostProblem),
    upstreamCheck("upstream_port", upstreamPortProblem),
    upstreamCheck("upstream_username", upstreamUsernameProblem),
    upstreamCheck("upstream_password", passwordProblem),
    v.forward(
      v.partialCheck(
        [["bandwidth_quota"], ["bandwidth_quota_unit"]],
        (input) => !quotaProblem(input.bandwidth_quota, input.bandwidth_quota_unit),
        (issue) => quotaProblem(issue.input.bandwidth_quota, issue.input.bandwidth_quota_unit),
      ),
      ["bandwidth_quota"],
    ),
  );
}
export type EditInput = v.InferInput<typeof EditFields>;
/** The form's fields (a server message for one of them lands under it). */
export const EDIT_FIELDS = Object.keys(EditFields.entries) as (keyof EditInput)[];
export type EditOutput = v.InferOutput<typeof EditFields>;

/**
 * The PATCH body for checked values: only the chosen exit's fields; a blank upstream password
 * is left out (kept); the limits as numbers (blank = 0, unlimited), the quota in the unit typed.
 */
export function toProxyEdit(values: EditOutput): ProxyEdit {
  const { username, password, status } = values;
  const quota = Number(values.bandwidth_quota);
  const limits = {
    ...(values.bandwidth_quota_unit === "MB" ? { bandwidth_quota_mb: quota } : { bandwidth_quota_gb: quota }),
    max_connections: Number(values.max_connections),
  };
  if (values.exit === "direct") return { username, password, status, exit: "direct", bind_address: values.bind_address, ...limits };
  return {
    username,
    password,
    status,
    ...limits,
    exit: "upstream",
    upstream_host: values.upstream_host,
    upstream_port: Number(values.upstream_port),
    upstream_username: values.upstream_username,
    ...(values.upstream_password ? { upstream_password: values.upstream_password } : {}),
  };
}

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
  state: v.string(),
  city: v.string(),
});
export type ImportInput = v.InferInput<typeof ImportSchema>;
export type ImportOutput = v.InferOutput<typeof ImportSchema>;
export const EMPTY_IMPORT: ImportInput = { text: "", type: "", country: "", state: "", city: "" };
