// The Overview's gateway texts, from the server's figures: today's line and the traffic
// notice of System Alerts (the spec's fixed "15% increase this month", measured).
import type { AdminOverview } from "@/features/console-overview/api";
import { formatBytes, formatPercent } from "@/features/console-overview/format";

const count = new Intl.NumberFormat("en-US");

/** "Gateway today: 8 connections · 2.9 KB traffic · 75% success · 3 refused (407/429)", or that there was none. */
export function gatewayTodayLine(today: AdminOverview["gateway_today"]): string {
  if (today.connections === 0 && today.bytes === 0 && today.success_rate_percent === null) {
    return "Gateway today: no traffic yet";
  }
  const parts = [
    `${count.format(today.connections)} ${today.connections === 1 ? "connection" : "connections"}`,
    `${formatBytes(today.bytes)} traffic`,
    today.success_rate_percent === null ? "no connect attempts" : `${formatPercent(today.success_rate_percent)} success`,
    ...(today.connections_refused > 0 ? [`${count.format(today.connections_refused)} refused (407/429)`] : []),
  ];
  return `Gateway today: ${parts.join(" · ")}`;
}

export type TrafficTone = "up" | "down" | "flat" | "none";

/** The traffic notice: this month so far against the same days of last month. */
export function trafficNotice(month: AdminOverview["traffic_month"]): { tone: TrafficTone; title: string; text: string } {
  const soFar = `${formatBytes(month.current)} so far, against ${formatBytes(month.previous)} in the same days of last month`;
  if (month.current === 0 && month.previous === 0) {
    return { tone: "none", title: "No traffic yet", text: "No proxy traffic this month or in the same days of last month." };
  }
  if (month.change_percent === null) {
    return { tone: "up", title: "Traffic started", text: `${formatBytes(month.current)} this month; none in the same days of last month.` };
  }
  if (month.change_percent > 0) {
    return { tone: "up", title: "Traffic growing", text: `${month.change_percent}% increase this month (${soFar}).` };
  }
  if (month.change_percent < 0) {
    return { tone: "down", title: "Traffic falling", text: `${-month.change_percent}% decrease this month (${soFar}).` };
  }
  return { tone: "flat", title: "Traffic steady", text: `No change this month (${soFar}).` };
}
