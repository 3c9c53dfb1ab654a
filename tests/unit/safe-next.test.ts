import { describe, expect, it } from "vitest";
import { safeNext, signInDestination } from "@/lib/safe-next";

describe("safeNext", () => {
  it.each([
    ["/dashboard/settings", "/dashboard/settings"],
    ["/dashboard/proxies?type=RESIDENTIAL#top", "/dashboard/proxies?type=RESIDENTIAL#top"],
    ["/console", "/console"],
  ])("keeps the same-site path %s", (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  it.each([
    null,
    "",
    "//evil.example",
    "//evil.example/dashboard",
    "/\\evil.example",
    "\\\\evil.example",
    "/dash\\board",
    "http://evil.example/dashboard",
    "https:evil.example",
    "javascript:alert(1)",
    "dashboard",
    "/\tevil",
    "/login",
    "/signup?x=1",
  ])("falls back to /dashboard for %j", (raw) => {
    expect(safeNext(raw)).toBe("/dashboard");
  });
});

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

  it.each([
    ["follows a customer's safe next", "/dashboard/proxies?type=RESIDENTIAL", customer, "/dashboard/proxies?type=RESIDENTIAL"],
    ["follows an admin's console next", "/console/users", admin, "/console/users"],
    ["follows an admin's dashboard next", "/dashboard/settings", admin, "/dashboard/settings"],
    ["lands on /dashboard without a next", null, customer, "/dashboard"],
    ["lands on /dashboard with an unsafe next", "//evil.com", admin, "/dashboard"],
    ["never sends a customer into the console", "/console/users", customer, "/dashboard"],
    ["never sends a customer to the console's root", "/console", customer, "/dashboard"],
    ["tells /console from a page that merely starts like it", "/consoles-are-fun", customer, "/consoles-are-fun"],
    ["sends a new account to onboarding", null, fresh, "/onboarding"],
    ["sends a new account to onboarding, not the dashboard", "/dashboard", fresh, "/onboarding"],
    ["sends a new account to onboarding carrying the next", "/dashboard/settings", fresh, "/onboarding?next=%2Fdashboard%2Fsettings"],
    ["keeps a new account's onboarding next as it is", "/onboarding", fresh, "/onboarding"],
    ["drops a new customer's console next", "/console/users", fresh, "/onboarding"],
  ] as const)("%s (%j)", (_name, next, user, expected) => {
    expect(signInDestination(next, user)).toBe(expected);
  });
});
