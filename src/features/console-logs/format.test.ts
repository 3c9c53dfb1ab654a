import { describe, expect, it } from "vitest";
import { actionTitle, adminName, detailsJson, shortId, showPager } from "@/features/console-logs/format";

describe("audit log formats", () => {
  it("writes actions in title case", () => {
    expect(actionTitle("users.balance_credit")).toBe("Users Balance Credit");
    expect(actionTitle("referrals.pay")).toBe("Referrals Pay");
    expect(actionTitle("pricing_plans.update")).toBe("Pricing Plans Update");
    expect(actionTitle("")).toBe("");
  });

  it("formats details, ids and names", () => {
    expect(detailsJson({ amount_cents: 5 })).toBe('{\n  "amount_cents": 5\n}');
    expect(detailsJson({})).toBe("");
    expect(detailsJson(null)).toBe("");
    expect(shortId("abcdefghijklmno")).toBe("abcdefgh");
    expect(adminName("Ada", "")).toBe("Ada");
    expect(adminName("", "")).toBe("");
  });

  it("shows the pager when a page is full or past the first", () => {
    expect(showPager(1, 20, 20)).toBe(true);
    expect(showPager(1, 19, 20)).toBe(false);
    expect(showPager(2, 3, 20)).toBe(true);
  });
});
