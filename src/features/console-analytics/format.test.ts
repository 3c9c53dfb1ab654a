import { describe, expect, it } from "vitest";
import { dayToSeconds, formatWholeDollars, percent, shortDay } from "@/features/console-analytics/format";

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
});
