import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EMPTY_PLAN, LIMIT_MESSAGES, PLACEHOLDER_LIST, PlanSchema, dollarsToCents, featureLines } from "@/features/console-pricing/schemas";

const messages = (input: unknown) => {
  const result = v.safeParse(PlanSchema, input);
  return result.success ? {} : v.flatten<typeof PlanSchema>(result.issues).nested;
};

describe("plan form", () => {
  it("defaults: popular off, active on", () => {
    expect(EMPTY_PLAN).toMatchObject({ popular: false, active: true });
  });

  it("converts dollars to cents and drops blank feature lines", () => {
    expect(dollarsToCents("2.5")).toBe(250);
    expect(dollarsToCents("0.015")).toBe(2);
    expect(dollarsToCents("abc")).toBeNaN();
    expect(featureLines(" Fast \n\n  \nPrivate\r\n")).toEqual(["Fast", "Private"]);
    expect(v.parse(PlanSchema, { ...EMPTY_PLAN, name: " Pro ", price: "1.99", features: "a\n\nb" })).toEqual({
      name: "Pro",
      type: "RESIDENTIAL",
      price_cents: 199,
      features: ["a", "b"],
      bandwidth_quota_gb: 0,
      max_connections: 0,
      popular: false,
      active: true,
    });
  });

  it("says what is missing with the spec's words", () => {
    expect(messages({ ...EMPTY_PLAN, name: "  ", price: "0", features: " \n " })).toEqual({
      name: ["Name is required"],
      price: ["Price must be greater than 0"],
      features: ["Features are required"],
    });
    expect(messages({ ...EMPTY_PLAN, name: "X", price: "", features: "a" })).toEqual({ price: ["Price must be greater than 0"] });
  });

  it("takes a feature line naming a known fact, and refuses an unknown placeholder (issue #28)", () => {
    const plan = { ...EMPTY_PLAN, name: "X", price: "1" };
    expect(messages({ ...plan, features: "Sticky sessions up to {session_max_hours} hours\nPlain {text" })).toEqual({});
    expect(messages({ ...plan, features: "Sessions up to {session_hours} hours" })).toEqual({
      features: [`Unknown placeholder: use ${PLACEHOLDER_LIST}, or plain text`],
    });
  });

  it("caps the price at $10,000.00 per proxy with the limit in words (issue #15)", () => {
    expect(messages({ ...EMPTY_PLAN, name: "X", price: "99999999", features: "a" })).toEqual({
      price: ["Price must be at most $10,000.00 per proxy"],
    });
    expect(messages({ ...EMPTY_PLAN, name: "X", price: "10000", features: "a" })).toEqual({});
  });
});

describe("plan limits (issue #16)", () => {
  it("takes whole GB and connections, blank as 0 (unlimited), with the server's messages otherwise", () => {
    const base = { ...EMPTY_PLAN, name: "X", price: "1", features: "a" };
    expect(v.parse(PlanSchema, { ...base, bandwidth_quota_gb: " 10 ", max_connections: "" })).toMatchObject({
      bandwidth_quota_gb: 10,
      max_connections: 0,
    });
    expect(messages({ ...base, bandwidth_quota_gb: "1.5", max_connections: "100001" })).toEqual({
      bandwidth_quota_gb: [LIMIT_MESSAGES.bandwidthQuota],
      max_connections: [LIMIT_MESSAGES.maxConnections],
    });
    expect(messages({ ...base, bandwidth_quota_gb: "1000001", max_connections: "-1" })).toEqual({
      bandwidth_quota_gb: [LIMIT_MESSAGES.bandwidthQuota],
      max_connections: [LIMIT_MESSAGES.maxConnections],
    });
    expect(messages({ ...base, bandwidth_quota_gb: "1000000", max_connections: "100000" })).toEqual({});
  });
});
