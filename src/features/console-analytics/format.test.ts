import { describe, expect, it } from "vitest";
import {
  dayToSeconds,
  formatBytes,
  formatMedianConnect,
  formatPercent,
  formatWholeDollars,
  percent,
  shortDay,
} from "@/features/console-analytics/format";

describe("analytics formats", () => {
  it("shows daily revenue in whole dollars", () => {
    expect(formatWholeDollars(340050)).toBe("$3,401");
    expect(formatWholeDollars(0)).toBe("$0");
    expect(formatWholeDollars(149)).toBe("$1");
  });

  it("reads UTC days", () => {
    expect(shortDay("2026-01-05")).toBe("Jan 05");
    expect(dayToSeconds("1970-01-02")).toBe(86400);
    expect(percent(1, 3)).toBe(33);
    expect(percent(1, 0)).toBe(0);
  });

  it("shows traffic in binary units, rates and the median connect bucket", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(12000)).toBe("12 KB");
    expect(formatBytes(1536 * 1024 * 1024)).toBe("1.5 GB");
    expect(formatPercent(97)).toBe("97%");
    expect(formatPercent(96.6)).toBe("96.6%");
    expect(formatMedianConnect({ at_most_ms: 50, over_ms: null })).toBe("≤ 50 ms");
    expect(formatMedianConnect({ at_most_ms: null, over_ms: 5000 })).toBe("> 5,000 ms");
  });
});
