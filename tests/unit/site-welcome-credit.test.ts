import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, welcomeCredit } from "@/lib/site";

describe("welcomeCredit", () => {
  it.each([
    ["500", "$5"],
    ["250", "$2.50"],
    ["1999", "$19.99"],
    ["10000", "$100"],
    ["250000", "$100"],
  ])("words %s cents as %s", (cents, label) => {
    expect(welcomeCredit({ ...DEFAULT_SETTINGS, welcome_credit_cents: cents })).toBe(label);
  });
  it.each(["0", "", "-5", "abc"])("is off for %j", (cents) => {
    expect(welcomeCredit({ ...DEFAULT_SETTINGS, welcome_credit_cents: cents })).toBeNull();
  });
  it("is $5 by default", () => {
    expect(welcomeCredit(DEFAULT_SETTINGS)).toBe("$5");
  });
});
