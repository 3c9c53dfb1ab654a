// My Proxies query: always my own proxies; search on five fields, matched literally.
import PocketBase from "pocketbase";
import { describe, expect, it } from "vitest";
import { hasCriteria, NO_CRITERIA, proxyFilter } from "@/features/proxies/filters";
import { containsPattern } from "@/lib/filter";
import { countryLabel, expiryText, isRenewable, locationLabel } from "@/features/proxies/format";
import { endpoint } from "@/lib/endpoint";

const client = new PocketBase("http://127.0.0.1");

describe("proxyFilter", () => {
  it("scopes to the user even without criteria (admins may list every proxy)", () => {
    expect(proxyFilter(client, "u1")).toBe('assigned_to_user_id = "u1"');
    expect(proxyFilter(client, "u1", NO_CRITERIA)).toBe('assigned_to_user_id = "u1"');
  });

  it("searches host, username, country, state and city, and adds type and country", () => {
    expect(proxyFilter(client, "u1", { search: "  berlin ", type: "DATACENTER", country: "DE" })).toBe(
      'assigned_to_user_id = "u1" && (host ~ "%berlin%" || username ~ "%berlin%" || country ~ "%berlin%" || state ~ "%berlin%" || city ~ "%berlin%") && type = "DATACENTER" && country = "DE"',
    );
  });

  it("quotes what the user types (no filter injection)", () => {
    const filter = proxyFilter(client, "u1", { search: '" || assigned_to_user_id != "', type: "", country: "" });
    expect(filter).toContain('host ~ "%\\" || assigned\\\\_to\\\\_user\\\\_id != \\"%"');
  });
});

describe("containsPattern", () => {
  it("escapes LIKE wildcards so they match literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
    expect(containsPattern("plain")).toBe("%plain%");
  });
});

describe("hasCriteria", () => {
  it("ignores a blank search", () => {
    expect(hasCriteria({ search: "   ", type: "", country: "" })).toBe(false);
    expect(hasCriteria({ search: "", type: "HTTP", country: "" })).toBe(true);
    expect(hasCriteria({ search: "", type: "", country: "US" })).toBe(true);
  });
});

describe("card texts", () => {
  const now = new Date("2026-01-01T12:00:00Z");
  it("shows host:port and the location without empty parts", () => {
    expect(endpoint({ host: "h.example", port: 8080 })).toBe("h.example:8080");
    expect(locationLabel({ country: "US", state: "California", city: "" })).toBe("California, US");
  });
  it("counts the days left, or says expired", () => {
    expect(expiryText({ status: "ASSIGNED", expires_at: "2026-01-31 12:00:00.000Z" }, now)).toBe("Expires Jan 31, 2026 · 30 days left");
    // A started day counts: 25 hours are 2 days, 3 hours 1 day.
    expect(expiryText({ status: "ASSIGNED", expires_at: "2026-01-02 13:00:00.000Z" }, now)).toBe("Expires Jan 02, 2026 · 2 days left");
    expect(expiryText({ status: "ASSIGNED", expires_at: "2026-01-01 15:00:00.000Z" }, now)).toBe("Expires Jan 01, 2026 · 1 day left");
    expect(expiryText({ status: "EXPIRED", expires_at: "2025-12-30 12:00:00.000Z" }, now)).toBe("Expired Dec 30, 2025");
    expect(expiryText({ status: "ASSIGNED", expires_at: "" }, now)).toBe("");
  });
  it("renews only active and expired proxies", () => {
    expect(isRenewable({ status: "ASSIGNED" })).toBe(true);
    expect(isRenewable({ status: "EXPIRED" })).toBe(true);
    expect(isRenewable({ status: "MAINTENANCE" })).toBe(false);
  });
  it("names known countries and keeps unknown codes", () => {
    expect(countryLabel("US")).toBe("United States (US)");
    expect(countryLabel("XX-unknown")).toBe("XX-unknown");
  });
});
