import { describe, expect, it } from "vitest";
import type { SystemAlerts } from "@/features/console-overview/api";
import { customersNotice, systemAlerts } from "@/features/console-overview/system-alerts";

const none = { current: 0, previous: 0, change_percent: 0, caption: "No change" };

const CALM: SystemAlerts = {
  checked_at: "2026-11-28 18:28:00.000Z",
  failing_upstreams: { count: 0, items: [] },
  silent_gateways: [],
  failed_payments: { count: 0, amount_cents: 0, since: "2026-11-27 18:28:00.000Z" },
  waiting_tickets: { count: 0, oldest_at: "" },
  growth: { customers: none, traffic: none },
};

describe("System Alerts (issue #28, 14)", () => {
  it("says nothing needs attention when nothing does, and never announces maintenance", () => {
    const alerts = systemAlerts(CALM);
    expect(alerts.map((a) => [a.tone, a.title])).toEqual([
      ["ok", "Nothing needs attention"],
      ["info", "No new customers yet"],
      ["info", "No traffic yet"],
    ]);
    expect(JSON.stringify(alerts)).not.toMatch(/maintenance|operational/i);
  });

  it("names each problem from the figures, problems first, and drops the calm notice", () => {
    const alerts = systemAlerts({
      ...CALM,
      failing_upstreams: {
        count: 7,
        items: [
          { id: "p1", upstream_host: "198.51.100.7", upstream_port: 8080, status: "AVAILABLE", error: "connection refused", failed_at: "" },
          { id: "p2", upstream_host: "up.example.com", upstream_port: 3128, status: "ASSIGNED", error: "", failed_at: "" },
        ],
      },
      silent_gateways: [
        { id: "g1", name: "eu-1", last_seen_at: "2026-11-28 18:00:00.000Z" },
        { id: "g2", name: "us-1", last_seen_at: "" },
      ],
      failed_payments: { count: 1, amount_cents: 2500, since: "" },
      waiting_tickets: { count: 2, oldest_at: "2026-11-28 09:05:00.000Z" },
    });
    expect(alerts.map((a) => a.title)).toEqual([
      "7 upstreams failing",
      "2 gateways not reporting",
      "1 payment failed",
      "2 tickets waiting",
      "No new customers yet",
      "No traffic yet",
    ]);
    expect(alerts[0]).toMatchObject({
      tone: "danger",
      text: "The gateway could not reach 198.51.100.7:8080 (connection refused), up.example.com:3128, and 5 more.",
      href: "/console/proxies",
    });
    expect(alerts[1]!.text).toBe("No word from eu-1 (last seen Nov 28, 2026 18:00 UTC), us-1 (never connected) for over 90 seconds.");
    expect(alerts[2]!.text).toBe("$25.00 in checkouts failed or expired in the last 24 hours.");
    expect(alerts[3]).toMatchObject({ text: "Waiting for a reply since Nov 28, 2026 09:05 UTC (the oldest).", href: "/console/support" });
  });

  it("words this month's growth from the real figures", () => {
    expect(customersNotice({ current: 23, previous: 20, change_percent: 15, caption: "" })).toEqual({
      title: "Customers growing",
      text: "15% increase this month: 23 new customers, against 20 new customers in the same days of last month.",
    });
    expect(customersNotice({ current: 1, previous: 0, change_percent: null, caption: "New" }).text).toBe(
      "1 new customer this month; none in the same days of last month.",
    );
    const traffic = systemAlerts({
      ...CALM,
      growth: { customers: none, traffic: { current: 1024, previous: 2048, change_percent: -50, caption: "" } },
    });
    expect(traffic.at(-1)).toMatchObject({ tone: "warning", title: "Traffic falling" });
  });
});
