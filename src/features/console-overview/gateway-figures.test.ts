import { describe, expect, it } from "vitest";
import { gatewayTodayLine, trafficNotice } from "@/features/console-overview/gateway-figures";

const today = {
  bytes_up: 1000,
  bytes_down: 2000,
  bytes: 3000,
  connections: 6,
  failed_connections: 2,
  connections_ok: 6,
  connections_failed: 2,
  connections_refused: 0,
  success_rate_percent: 75,
};

describe("the Overview's gateway texts", () => {
  it("says what the gateway did today, or that it did nothing", () => {
    expect(gatewayTodayLine(today)).toBe("Gateway today: 6 connections · 2.9 KB traffic · 75% success");
    expect(gatewayTodayLine({ ...today, connections: 1, success_rate_percent: 99.5 })).toBe(
      "Gateway today: 1 connection · 2.9 KB traffic · 99.5% success",
    );
    expect(gatewayTodayLine({ ...today, connections: 0, bytes: 0, success_rate_percent: null })).toBe("Gateway today: no traffic yet");
    // Refused clients (407/429) are said apart, never counted as connections (issue #28).
    expect(gatewayTodayLine({ ...today, connections_refused: 3 })).toBe(
      "Gateway today: 6 connections · 2.9 KB traffic · 75% success · 3 refused (407/429)",
    );
  });

  it("words the traffic notice from this month against the same days of last month", () => {
    expect(trafficNotice({ current: 3072, previous: 2048, change_percent: 50, caption: "" })).toEqual({
      tone: "up",
      title: "Traffic growing",
      text: "50% increase this month (3 KB so far, against 2 KB in the same days of last month).",
    });
    expect(trafficNotice({ current: 1024, previous: 2048, change_percent: -50, caption: "" })).toMatchObject({
      tone: "down",
      title: "Traffic falling",
      text: "50% decrease this month (1 KB so far, against 2 KB in the same days of last month).",
    });
    expect(trafficNotice({ current: 100, previous: 100, change_percent: 0, caption: "" }).title).toBe("Traffic steady");
    expect(trafficNotice({ current: 1024, previous: 0, change_percent: null, caption: "" })).toMatchObject({
      title: "Traffic started",
      text: "1 KB this month; none in the same days of last month.",
    });
    expect(trafficNotice({ current: 0, previous: 0, change_percent: 0, caption: "" }).title).toBe("No traffic yet");
  });
});
