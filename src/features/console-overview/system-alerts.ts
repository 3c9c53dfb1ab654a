// System Alerts' wording (admin spec 2; issue #28, 14), from what the server read: every
// notice is a fact of the system, never a fixed text. Problems first (failing upstreams,
// silent gateways, failed payments, waiting tickets), or one "nothing needs attention"
// notice, then this month's growth (new customers, and proxy traffic as gateway-figures.ts words it).
import type { SystemAlerts } from "@/features/console-overview/api";
import { trafficNotice } from "@/features/console-overview/gateway-figures";
import { formatDateTimeUtc } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import { plural } from "@/lib/plural";

export type AlertTone = "ok" | "warning" | "danger" | "info";

export interface SystemAlert {
  id: string;
  tone: AlertTone;
  title: string;
  text: string;
  /** Where the admin deals with it. */
  href?: string;
}

type Growth = SystemAlerts["growth"]["traffic"];

/** "Nov 28, 2026 18:28 UTC": the same on the server's render and in the browser. */
const when = (value: string) => `${formatDateTimeUtc(value)} UTC`;

function upstreamsAlert(failing: SystemAlerts["failing_upstreams"]): SystemAlert | null {
  if (failing.count === 0) return null;
  const named = failing.items.map((u) => `${u.upstream_host}:${u.upstream_port}${u.error ? ` (${u.error})` : ""}`);
  const more = failing.count > named.length ? `, and ${plural(failing.count - named.length, "more", "more")}` : "";
  return {
    id: "upstreams",
    tone: "danger",
    title: `${plural(failing.count, "upstream", "upstreams")} failing`,
    text: `The gateway could not reach ${named.join(", ")}${more}.`,
    href: "/console/proxies",
  };
}

function gatewaysAlert(silent: SystemAlerts["silent_gateways"]): SystemAlert | null {
  if (silent.length === 0) return null;
  const named = silent.map((g) => (g.last_seen_at ? `${g.name} (last seen ${when(g.last_seen_at)})` : `${g.name} (never connected)`));
  return {
    id: "gateways",
    tone: "danger",
    title: `${plural(silent.length, "gateway", "gateways")} not reporting`,
    text: `No word from ${named.join(", ")} for over 90 seconds.`,
    href: "/console/settings",
  };
}

/** A count that needs a look: null when it is 0. */
function countAlert(count: number, alert: Omit<SystemAlert, "tone">): SystemAlert | null {
  return count === 0 ? null : { tone: "warning", ...alert };
}

const paymentsAlert = (failed: SystemAlerts["failed_payments"]) =>
  countAlert(failed.count, {
    id: "payments",
    title: `${plural(failed.count, "payment", "payments")} failed`,
    text: `${formatCents(failed.amount_cents)} in checkouts failed or expired in the last 24 hours.`,
  });

const ticketsAlert = (waiting: SystemAlerts["waiting_tickets"]) =>
  countAlert(waiting.count, {
    id: "tickets",
    title: `${plural(waiting.count, "ticket", "tickets")} waiting`,
    text: `Waiting for a reply since ${when(waiting.oldest_at)}${waiting.count > 1 ? " (the oldest)" : ""}.`,
    href: "/console/support",
  });

/** New customers this month against the same days of last month. */
export function customersNotice(growth: Growth): { title: string; text: string } {
  const count = (n: number) => plural(n, "new customer", "new customers");
  const against = `against ${count(growth.previous)} in the same days of last month`;
  if (growth.current === 0 && growth.previous === 0) {
    return { title: "No new customers yet", text: "No sign-ups this month or in the same days of last month." };
  }
  if (growth.change_percent === null)
    return { title: "Customers", text: `${count(growth.current)} this month; none in the same days of last month.` };
  if (growth.change_percent === 0) return { title: "Customers steady", text: `${count(growth.current)} this month, ${against}.` };
  const change = growth.change_percent > 0 ? `${growth.change_percent}% increase` : `${-growth.change_percent}% decrease`;
  return {
    title: growth.change_percent > 0 ? "Customers growing" : "Customers falling",
    text: `${change} this month: ${count(growth.current)}, ${against}.`,
  };
}

/** The notices, problems first. */
export function systemAlerts(data: SystemAlerts): SystemAlert[] {
  const problems = [
    upstreamsAlert(data.failing_upstreams),
    gatewaysAlert(data.silent_gateways),
    paymentsAlert(data.failed_payments),
    ticketsAlert(data.waiting_tickets),
  ].filter((a): a is SystemAlert => a !== null);
  const calm: SystemAlert = {
    id: "calm",
    tone: "ok",
    title: "Nothing needs attention",
    text: "No failing upstreams, silent gateways, failed payments or waiting tickets.",
  };
  const traffic = trafficNotice(data.growth.traffic);
  return [
    ...(problems.length ? problems : [calm]),
    { id: "customers", tone: "info", ...customersNotice(data.growth.customers) },
    { id: "traffic", tone: traffic.tone === "down" ? "warning" : "info", title: traffic.title, text: traffic.text },
  ];
}
