// The "Create API key" form's checks and the body it sends (the server's own checks are in
// the API tests; these mirror them for instant feedback).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { keyStatus } from "@/features/account/api-keys/format";
import {
  capInput,
  EMPTY_KEY,
  expiryTime,
  KEY_MESSAGES,
  localDate,
  NewApiKeySchema,
  SpendCapSchema,
} from "@/features/account/api-keys/schemas";

const messages = (input: unknown): Partial<Record<string, string[]>> => {
  const result = v.safeParse(NewApiKeySchema, input);
  return result.success ? {} : (v.flatten<typeof NewApiKeySchema>(result.issues).nested ?? {});
};

describe("NewApiKeySchema", () => {
  it("sends a read key with no expiry, allowlist or cap", () => {
    expect(v.parse(NewApiKeySchema, { ...EMPTY_KEY, name: "  CI  " })).toEqual({
      name: "CI",
      scopes: ["read"],
      expires_at: null,
      ip_allowlist: [],
      spend_cap_cents: null,
    });
  });

  it("turns the cap into cents only with the purchase scope, and the allowlist into entries", () => {
    const body = v.parse(NewApiKeySchema, {
      ...EMPTY_KEY,
      name: "Buyer",
      scopes: ["read", "purchase"],
      ip_allowlist: "203.0.113.7\n\n 198.51.100.0/24 \n2001:db8::/32",
      spend_cap: "12.5",
    });
    expect(body.spend_cap_cents).toBe(1250);
    expect(body.ip_allowlist).toEqual(["203.0.113.7", "198.51.100.0/24", "2001:db8::/32"]);
    // Without purchase the (hidden) cap is neither checked nor sent.
    expect(v.parse(NewApiKeySchema, { ...EMPTY_KEY, name: "R", spend_cap: "abc" }).spend_cap_cents).toBeNull();
  });

  it("names what is wrong under each field", () => {
    expect(messages({ ...EMPTY_KEY, scopes: [] })).toEqual({
      name: [KEY_MESSAGES.nameRequired],
      scopes: [KEY_MESSAGES.noScope],
    });
    expect(messages({ ...EMPTY_KEY, name: "x".repeat(101), scopes: false })).toMatchObject({
      name: [KEY_MESSAGES.nameTooLong],
      scopes: [KEY_MESSAGES.noScope],
    });
    expect(messages({ ...EMPTY_KEY, name: "k", ip_allowlist: "10.0.0.1\n10.0.0.300" })).toEqual({
      ip_allowlist: ["'10.0.0.300' is not an IP address or CIDR range."],
    });
    expect(messages({ ...EMPTY_KEY, name: "k", ip_allowlist: "nope\n10.0.0.1\n10.0.0.300" }).ip_allowlist).toEqual([
      "'nope' is not an IP address or CIDR range. '10.0.0.300' is not an IP address or CIDR range.",
    ]);
    expect(messages({ ...EMPTY_KEY, name: "k", ip_allowlist: "10.0.0.0/33" }).ip_allowlist).toHaveLength(1);
    expect(messages({ ...EMPTY_KEY, name: "k", ip_allowlist: "0.0.0.0/0" }).ip_allowlist?.[0]).toContain("would let every address in");
    expect(messages({ ...EMPTY_KEY, name: "k", expires: "2000-01-01" })).toEqual({ expires: [KEY_MESSAGES.expiryPast] });
    for (const [cap, message] of [
      ["ten", KEY_MESSAGES.capNotNumber],
      ["1.234", KEY_MESSAGES.capFraction],
      ["0", KEY_MESSAGES.capNotPositive],
      ["1000000.01", KEY_MESSAGES.capTooLarge],
    ] as const) {
      expect(messages({ ...EMPTY_KEY, name: "k", scopes: ["purchase"], spend_cap: cap })).toEqual({ spend_cap: [message] });
    }
  });

  it("lets a key expire at the end of a day from today on", () => {
    const today = localDate();
    const body = v.parse(NewApiKeySchema, { ...EMPTY_KEY, name: "k", expires: today });
    expect(body.expires_at).toBe(expiryTime(today));
    expect(new Date(body.expires_at ?? "").getTime()).toBeGreaterThan(Date.now());
  });
});

describe("keyStatus", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  it("is Revoked, Expired or Active", () => {
    expect(keyStatus({ revoked_at: "2026-05-01T00:00:00Z", expires_at: "2026-05-01T00:00:00Z" }, now)).toBe("Revoked");
    expect(keyStatus({ revoked_at: null, expires_at: "2026-06-01T11:59:59Z" }, now)).toBe("Expired");
    expect(keyStatus({ revoked_at: null, expires_at: "2026-06-02T00:00:00Z" }, now)).toBe("Active");
    expect(keyStatus({ revoked_at: null, expires_at: null }, now)).toBe("Active");
  });
});

describe("SpendCapSchema", () => {
  const cap = (spend_cap: string) => v.safeParse(SpendCapSchema, { spend_cap });

  it("sends the cap in cents, or null to remove it (issue #28)", () => {
    expect(v.parse(SpendCapSchema, { spend_cap: "75" })).toEqual({ spend_cap_cents: 7500 });
    expect(v.parse(SpendCapSchema, { spend_cap: " " })).toEqual({ spend_cap_cents: null });
    expect(capInput(5000)).toBe("50.00");
    expect(capInput(null)).toBe("");
  });

  it("says what is wrong with a cap as the new-key form does", () => {
    expect(cap("12.345").issues?.[0]?.message).toBe(KEY_MESSAGES.capFraction);
    expect(cap("0").issues?.[0]?.message).toBe(KEY_MESSAGES.capNotPositive);
    expect(cap("lots").issues?.[0]?.message).toBe(KEY_MESSAGES.capNotNumber);
  });
});
