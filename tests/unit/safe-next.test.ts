import { describe, expect, it } from "vitest";
import { safeNext, signInDestination } from "@/lib/safe-next";

describe("safeNext: open-redirect cases", () => {
  it.each([
    ["protocol-relative", "//evil.com"],
    ["backslash", "/\\evil.com"],
    ["absolute URL", "https://evil.com"],
    ["javascript: URL", "javascript:alert(1)"],
    ["bare scheme", "javascript:"],
    ["encoded slashes (decoded '//evil.com')", "/%2F%2Fevil.com"],
    ["encoded slash after one slash", "/%2Fevil.com"],
    ["encoded backslash", "/%5Cevil.com"],
    ["encoded control character", "/dashboard%0Aevil"],
    ["broken escape", "/dashboard%E0%A4%A"],
    ["control character", "/dash\nboard"],
    ["empty", ""],
    ["missing", null],
  ])("%s (%j) falls back to /dashboard", (_name, raw) => {
    expect(safeNext(raw)).toBe("/dashboard");
  });

  it.each([
    ["/dashboard/proxies", "/dashboard/proxies"],
    ["/dashboard/transactions?page=2#list", "/dashboard/transactions?page=2#list"],
    ["/console/users", "/console/users"],
    ["/dashboard/support?q=a%2Fb", "/dashboard/support?q=a%2Fb"],
  ])("keeps the same-origin path %j", (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });
});

describe("signInDestination", () => {
  const customer = { is_admin: false, onboarding_completed: true };
  const admin = { is_admin: true, onboarding_completed: true };
  const fresh = { is_admin: false, onboarding_completed: false };

  it("follows a safe next for customers and admins alike", () => {
    expect(signInDestination("/dashboard/proxies?type=RESIDENTIAL", customer)).toBe("/dashboard/proxies?type=RESIDENTIAL");
    expect(signInDestination("/console/users", admin)).toBe("/console/users");
    expect(signInDestination("/dashboard/settings", admin)).toBe("/dashboard/settings");
  });

  it("lands on /dashboard without a next or with an unsafe one", () => {
    expect(signInDestination(null, customer)).toBe("/dashboard");
    expect(signInDestination("//evil.com", admin)).toBe("/dashboard");
  });

  it("never sends a customer into the console", () => {
    expect(signInDestination("/console/users", customer)).toBe("/dashboard");
    expect(signInDestination("/console", customer)).toBe("/dashboard");
    expect(signInDestination("/consoles-are-fun", customer)).toBe("/consoles-are-fun");
  });

  it("sends a new account to onboarding first, carrying the next along", () => {
    expect(signInDestination(null, fresh)).toBe("/onboarding");
    expect(signInDestination("/dashboard", fresh)).toBe("/onboarding");
    expect(signInDestination("/dashboard/settings", fresh)).toBe("/onboarding?next=%2Fdashboard%2Fsettings");
    expect(signInDestination("/onboarding", fresh)).toBe("/onboarding");
    expect(signInDestination("/console/users", fresh)).toBe("/onboarding");
  });
});
