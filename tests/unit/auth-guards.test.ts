import { describe, expect, it } from "vitest";
import { guard, isAppPath, referralCookie } from "@/lib/server/auth";
import type { UserRecord } from "@/lib/pocketbase-types";

const user = (over: Partial<UserRecord> = {}) => ({ id: "u1", is_admin: false, onboarding_completed: true, ...over }) as UserRecord;

describe("guard", () => {
  it("sends anonymous visitors to /login with the page they wanted", () => {
    expect(guard("/dashboard/settings", "?tab=1", null)).toEqual({ redirect: "/login?next=%2Fdashboard%2Fsettings%3Ftab%3D1" });
  });
  it("keeps customers out of the console", () => {
    expect(guard("/console/users", "", user())).toEqual({ redirect: "/dashboard" });
    expect(guard("/console", "", user({ is_admin: true }))).toEqual({ allow: true });
  });
  it("sends users who have not finished onboarding from /dashboard to /onboarding", () => {
    expect(guard("/dashboard", "", user({ onboarding_completed: false }))).toEqual({ redirect: "/onboarding" });
    expect(guard("/dashboard/settings", "", user({ onboarding_completed: false }))).toEqual({ allow: true });
    expect(guard("/dashboard", "", user())).toEqual({ allow: true });
  });
  it("knows the app paths", () => {
    expect(["/dashboard", "/dashboard/x", "/console", "/console/a/b", "/onboarding"].every(isAppPath)).toBe(true);
    expect(["/", "/login", "/dashboards", "/docs"].some(isAppPath)).toBe(false);
    // Admin registration by invitation is reached signed out; its route checks the invitation.
    expect(isAppPath("/console/register")).toBe(false);
    expect(isAppPath("/console/register/")).toBe(false);
  });
});

describe("referralCookie", () => {
  it("remembers a valid code for 30 days", () => {
    expect(referralCookie(new URL("http://x/pricing?ref=AB12CD34"))).toBe("shop_ref=AB12CD34; Max-Age=2592000; Path=/; SameSite=Lax");
    expect(referralCookie(new URL("https://x/?ref=AB"))).toContain("; Secure");
  });
  it("ignores missing or malformed codes", () => {
    expect(referralCookie(new URL("http://x/"))).toBeNull();
    expect(referralCookie(new URL("http://x/?ref=a;b"))).toBeNull();
    expect(referralCookie(new URL(`http://x/?ref=${"A".repeat(40)}`))).toBeNull();
  });
});
