// How the Audit Logs page shows an entry (admin spec 2, "Audit Logs"): the action's title,
// and (issue #15) a readable sentence per action from one table, SENTENCES.
import { formatCents } from "@/lib/money";
import { plural } from "@/lib/plural";
import type { AuditEntry } from "@/features/console-logs/api";

/**
 * An action name in title case: every word between dots and underscores capitalised,
 * "users.balance_credit" -> "Users Balance Credit", "referrals.pay" -> "Referrals Pay".
 */
export function actionTitle(action: string): string {
  return action
    .split(/[._\s-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** The details as indented JSON ("" when there are none). */
export function detailsJson(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details === "object" && Object.keys(details).length === 0) return "";
  return JSON.stringify(details, null, 2);
}

/** The first 8 characters of a target id (the spec's short form). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** "Ada Lovelace", or "" when the admin has no names. */
export function adminName(first: string, last: string): string {
  return [first, last].filter(Boolean).join(" ");
}

/** Whether Previous/Next show: once a page is full, or past page 1 (spec: "shown when a page is full"). */
export function showPager(page: number, itemsOnPage: number, perPage: number): boolean {
  return page > 1 || itemsOnPage >= perPage;
}

// ---- The sentence of an entry ---------------------------------------------------------

type Details = Record<string, unknown>;

/** What a sentence is built from: who acted, the target as named, the entry's details. */
export interface SentenceParts {
  /** "Admin Jane Doe", "Admin jane@example.com", or "A deleted administrator". */
  actor: string;
  /** The target as a sentence names it ("jo@example.com", "site_name", "8f3k2a1b (deleted)"), "" when there is none. */
  target: string;
  details: Details;
  entry: AuditSentenceEntry;
}

/** The fields of an audit entry a sentence reads. */
export type AuditSentenceEntry = Pick<
  AuditEntry,
  | "action"
  | "target_type"
  | "target_id"
  | "details"
  | "admin_email"
  | "admin_first_name"
  | "admin_last_name"
  | "target_label"
  | "target_name"
  | "target_deleted"
>;

/** A value as a sentence quotes it: text in quotes, other values as JSON, long ones cut. */
export function quoted(value: unknown): string {
  const text = typeof value === "string" ? `"${value}"` : value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** `{field: {from, to}}` as "field from "a" to "b", other from 1 to 2". */
export function changesText(changes: unknown): string {
  if (!changes || typeof changes !== "object") return "";
  return Object.entries(changes as Record<string, { from?: unknown; to?: unknown } | null>)
    .map(([field, change]) => `${field} from ${quoted(change?.from)} to ${quoted(change?.to)}`)
    .join(", ");
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const cents = (value: unknown): string => formatCents(typeof value === "number" ? value : 0);
const count = (value: unknown): number => (typeof value === "number" ? value : 0);
/** ": reason" when there is one. */
const because = (value: unknown): string => (text(value) ? `: ${text(value)}` : "");
/** " (changes)" when there are any. */
const withChanges = (d: Details): string => {
  const changes = changesText(d["changes"]);
  return changes ? `: ${changes}` : "";
};
const nested = (d: Details, key: string): Details => {
  const value = d[key];
  return value && typeof value === "object" ? (value as Details) : {};
};

/** An e-mail change's old and new address, whichever shape the details have. */
function emailChange(d: Details): { from: string; to: string } {
  const email = nested(d, "email");
  return {
    from: text(email["from"]) || text(d["old_email"]) || text(d["from"]),
    to: text(email["to"]) || text(d["new_email"]) || text(d["to"]),
  };
}

type Sentence = (p: SentenceParts) => string;

/** The actions the log knows, each as a sentence. Unknown actions read genericSentence. */
export const SENTENCES: Record<string, Sentence> = {
  "users.balance_credit": (p) =>
    `${p.actor} credited ${cents(p.details["amount_cents"])} to ${p.target}${because(p.details["description"])}`,
  "users.balance_debit": (p) =>
    `${p.actor} debited ${cents(p.details["amount_cents"])} from ${p.target}${because(p.details["description"])}`,
  "users.admin_grant": (p) => `${p.actor} granted admin rights to ${p.target}`,
  "users.admin_revoke": (p) => `${p.actor} removed admin rights from ${p.target}`,
  "users.suspend": (p) => `${p.actor} suspended ${p.target}${because(p.details["reason"])}`,
  "users.unsuspend": (p) => `${p.actor} unsuspended ${p.target}`,
  "users.email_change": (p) => {
    const { from, to } = emailChange(p.details);
    return from && to
      ? `${p.actor} changed the e-mail of ${p.target} from ${from} to ${to}`
      : `${p.actor} changed the e-mail of ${p.target}`;
  },
  "users.verify": (p) => `${p.actor} marked ${p.target} as verified`,
  "users.verification_resend": (p) => `${p.actor} resent the verification e-mail to ${p.target}`,
  "users.resend_verification": (p) => `${p.actor} resent the verification e-mail to ${p.target}`,
  "users.erase": (p) => `${p.actor} erased the account ${text(p.details["email"]) || p.target}${because(p.details["reason"])}`,
  "users.delete": (p) => {
    const email = text(p.details["email"]);
    return `${p.actor} deleted the account ${email && p.entry.target_deleted ? `${email} (${p.target})` : p.target}`;
  },
  "users.update": (p) => `${p.actor} updated ${p.target}${withChanges(p.details)}`,
  "proxy_orders.refund": (p) =>
    `${p.actor} refunded ${cents(p.details["amount_cents"])} for ${p.target}${p.entry.target_name ? ` to ${p.entry.target_name}` : ""}${because(p.details["reason"])}`,
  "proxies.create": (p) => `${p.actor} added proxy ${p.target}`,
  "proxies.update": (p) => `${p.actor} edited proxy ${p.target}${withChanges(p.details)}`,
  "proxies.delete": (p) => `${p.actor} deleted proxy ${p.target}`,
  "proxies.generate": (p) => {
    const place = [p.details["city"], p.details["state"], p.details["country"]].map(text).filter(Boolean).join(", ");
    const type = text(p.details["type"]);
    return `${p.actor} generated ${plural(count(p.details["count"]), `${type} proxy`.trim(), `${type} proxies`.trim())}${place ? ` in ${place}` : ""}`;
  },
  "proxies.import": (p) => {
    const skipped = count(p.details["skipped"]);
    return `${p.actor} imported ${plural(count(p.details["imported"]), "proxy", "proxies")}${skipped ? ` (${plural(skipped, "line", "lines")} skipped)` : ""}`;
  },
  "referrals.pay": (p) => {
    const affiliate = text(p.details["affiliate_email"]);
    return `${p.actor} paid ${cents(p.details["amount_cents"])} commission${affiliate ? ` to ${affiliate}` : ""} for referring ${p.target}`;
  },
  "settings.update": (p) => {
    if (p.entry.target_id) {
      const value = nested(nested(p.details, "changes"), "value");
      if ("from" in value || "to" in value)
        return `${p.actor} changed setting ${p.target} from ${quoted(value["from"])} to ${quoted(value["to"])}`;
      return `${p.actor} updated setting ${p.target}${withChanges(p.details)}`;
    }
    const changes = nested(p.details, "changes");
    return `${p.actor} changed ${Object.keys(changes).length === 1 ? "setting" : "settings"} ${changesText(changes)}`;
  },
  "settings.create": (p) => `${p.actor} added setting ${p.target}`,
  "settings.delete": (p) => `${p.actor} deleted setting ${p.target}`,
  "pricing_plans.create": (p) => `${p.actor} created plan ${p.target}`,
  "pricing_plans.update": (p) => `${p.actor} updated plan ${p.target}${withChanges(p.details)}`,
  "pricing_plans.delete": (p) => `${p.actor} deleted plan ${p.target}`,
  "support_tickets.update": (p) => `${p.actor} updated ticket ${quotedTarget(p)}${withChanges(p.details)}`,
  "support_tickets.delete": (p) => `${p.actor} deleted ticket ${quotedTarget(p)}`,
  "chat_messages.reply": (p) => `${p.actor} replied to ticket ${quotedTarget(p)}: ${quoted(p.details["message"])}`,
  "contact_messages.update": (p) => `${p.actor} updated contact message ${quotedTarget(p)}${withChanges(p.details)}`,
  "contact_messages.delete": (p) => `${p.actor} deleted contact message ${quotedTarget(p)}`,
  "invitations.create": (p) => `${p.actor} created an admin invitation for ${text(p.details["email"]) || "anyone with the link"}`,
  "invitations.revoke": (p) => `${p.actor} revoked the admin invitation for ${text(p.details["email"]) || "anyone with the link"}`,
  "invitations.accept": (p) => `${p.actor} joined as an administrator through an invitation`,
  "admin_setup.create": (p) => `${p.actor} joined as an administrator through a setup link`,
  "gateway_token.create": (p) => `${p.actor} created gateway token ${quoted(text(p.details["name"]))}`,
  "gateway_token.revoke": (p) => `${p.actor} revoked gateway token ${quoted(text(p.details["name"]))}`,
  "admin.sign_in": (p) => {
    const agent = text(p.details["user_agent"]);
    return `${p.actor} signed in from ${text(p.details["ip"]) || "an unknown address"}${agent ? ` (${agent})` : ""}`;
  },
  "admin.refused": (p) =>
    `${p.target || "A signed-in user"} (not an administrator) was refused ${[text(p.details["method"]), text(p.details["route"])].filter(Boolean).join(" ")}`,
};

/** A ticket's or message's subject in quotes, or the id form when it has none. */
function quotedTarget(p: SentenceParts): string {
  return p.entry.target_label && !p.entry.target_deleted ? `"${p.entry.target_label}"` : p.target;
}

/** The sentence of an action the table does not know. */
export function genericSentence(p: SentenceParts): string {
  const what = [p.entry.target_type, p.target].filter(Boolean).join(" ");
  return `${p.actor} did "${actionTitle(p.entry.action)}"${what ? ` on ${what}` : ""}`;
}

/** Who acted, as a sentence starts: "Admin Jane Doe", "Admin jane@example.com", "A deleted administrator". */
export function actorText(entry: Pick<AuditEntry, "admin_email" | "admin_first_name" | "admin_last_name">): string {
  const who = adminName(entry.admin_first_name, entry.admin_last_name) || entry.admin_email;
  return who ? `Admin ${who}` : "A deleted administrator";
}

/** The target as a sentence names it: its label, its short id marked "(deleted)" when gone, else its short id. */
export function targetText(entry: Pick<AuditEntry, "target_id" | "target_label" | "target_deleted">): string {
  if (entry.target_deleted) return `${shortId(entry.target_id)} (deleted)`;
  return entry.target_label || shortId(entry.target_id);
}

/** The target as the entry shows it: "Jo Doe · jo@example.com", "site_name", "8f3k2a1b (deleted)", "" for none. */
export function targetDisplay(entry: Pick<AuditEntry, "target_id" | "target_label" | "target_name" | "target_deleted">): string {
  const target = targetText(entry);
  return entry.target_name && !entry.target_deleted ? `${entry.target_name} · ${target}` : target;
}

/** The readable sentence of an audit entry (SENTENCES, else genericSentence). */
export function auditSentence(entry: AuditSentenceEntry): string {
  const details = entry.details && typeof entry.details === "object" ? (entry.details as Details) : {};
  const parts: SentenceParts = { actor: actorText(entry), target: targetText(entry), details, entry };
  return (SENTENCES[entry.action] ?? genericSentence)(parts);
}
