// Server texts date a day as the pages do (src/lib/dates.ts formatDate): one format everywhere (issue #28).
import { describe, expect, it } from "vitest";
import { formatDateUtc } from "@/lib/dates";
import { hookModule } from "./support/hook-module.ts";

const views = hookModule<{ dayText: (stored: string) => string }>("lib/core/views.js");

describe("dayText", () => {
  it("writes a stored date as 'MMM dd, yyyy', like the pages", () => {
    expect(views.dayText("2026-11-28 18:28:00.000Z")).toBe("Nov 28, 2026");
    expect(views.dayText("2026-01-02 00:00:00.000Z")).toBe(formatDateUtc("2026-01-02 00:00:00.000Z"));
    expect(views.dayText("")).toBe("");
  });
});
