// Dates in the viewer's zone, and the UTC forms server-rendered HTML shows until the island
// hydrates (the server cannot know the viewer's zone; hydration must match the HTML).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDateTimeUtc, formatDateUtc } from "@/lib/dates";
import { expiryText } from "@/features/proxies/format";

describe("dates away from UTC", () => {
  const machineZone = process.env["TZ"];
  beforeEach(() => {
    // Node follows a change of TZ at once: this machine is now in India (UTC+05:30).
    process.env["TZ"] = "Asia/Kolkata";
  });
  afterEach(() => {
    if (machineZone === undefined) delete process.env["TZ"];
    else process.env["TZ"] = machineZone;
  });

  const lateEvening = "2026-01-01 20:00:00.000Z";

  it("shows local dates in the viewer's zone", () => {
    expect(formatDate(lateEvening)).toBe("Jan 02, 2026");
    expect(formatDateTime(lateEvening)).toBe("Jan 02, 2026 01:30");
  });

  it("shows the UTC forms whatever the machine's zone", () => {
    expect(formatDateUtc(lateEvening)).toBe("Jan 01, 2026");
    expect(formatDateTimeUtc(lateEvening)).toBe("Jan 01, 2026 20:00");
    expect(formatDateUtc("")).toBe("");
  });

  it("gives a proxy's expiry in UTC for the server-rendered card, local after hydration", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    const proxy = { status: "ASSIGNED" as const, expires_at: "2026-01-10 20:00:00.000Z" };
    expect(expiryText(proxy, now, true)).toBe("Expires Jan 10, 2026 · 10 days left");
    expect(expiryText(proxy, now)).toBe("Expires Jan 11, 2026 · 10 days left");
  });
});
