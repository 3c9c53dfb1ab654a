import { describe, expect, it } from "vitest";
import { safeNext } from "@/lib/safe-next";

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
