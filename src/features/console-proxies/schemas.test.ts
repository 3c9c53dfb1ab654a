import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { INVENTORY_LIMITS } from "@/lib/catalog";
import {
  EDIT_MESSAGES,
  editSchema,
  EMPTY_GENERATE,
  GB,
  GenerateSchema,
  MB,
  quotaFields,
  toProxyEdit,
  type EditInput,
} from "@/features/console-proxies/schemas";

const quantityMessage = (quantity: string) => {
  const result = v.safeParse(GenerateSchema, { ...EMPTY_GENERATE, country: "US", quantity });
  return result.success ? "" : v.flatten<typeof GenerateSchema>(result.issues).nested?.quantity?.[0];
};

describe("the generate form's quantity", () => {
  it("says 'at least 1' for zero and negative numbers, 'whole number' for fractions (issue #15)", () => {
    expect(quantityMessage("-2")).toBe("Quantity must be at least 1");
    expect(quantityMessage("0")).toBe("Quantity must be at least 1");
    expect(quantityMessage("2.5")).toBe("Quantity must be a whole number");
    expect(quantityMessage("1001")).toBe("Maximum 1000 proxies per batch");
    expect(quantityMessage("1")).toBe("");
  });
});

const EDIT: EditInput = {
  username: "shopuser1",
  password: "Shop#Secret2026",
  status: "AVAILABLE",
  exit: "upstream",
  bind_address: "",
  upstream_host: "upstream.example.com",
  upstream_port: "8080",
  upstream_username: "seller",
  upstream_password: "",
  bandwidth_quota: "0",
  bandwidth_quota_unit: "GB",
  max_connections: "0",
};

/** The edit form's messages by field ({} when it passes). */
function editErrors(change: Partial<EditInput>, stored = true): Record<string, string | undefined> {
  const result = v.safeParse(editSchema(stored), { ...EDIT, ...change });
  if (result.success) return {};
  const nested = v.flatten<ReturnType<typeof editSchema>>(result.issues).nested ?? {};
  return Object.fromEntries(Object.entries(nested).map(([field, messages]) => [field, messages?.[0]]));
}

describe("the edit form's exit (issue #16)", () => {
  it("takes an upstream host name, IPv4 or IPv6 address (brackets dropped), and names all three when wrong", () => {
    const hostOf = (upstream_host: string) => {
      const result = v.safeParse(editSchema(true), { ...EDIT, upstream_host });
      return result.success ? result.output.upstream_host : editErrors({ upstream_host })["upstream_host"];
    };
    expect(hostOf(" Proxy.Example.COM ")).toBe("proxy.example.com");
    expect(hostOf("203.0.113.7")).toBe("203.0.113.7");
    expect(hostOf("[2001:DB8::1]")).toBe("2001:db8::1");
    expect(hostOf("2001:db8::1")).toBe("2001:db8::1");
    expect(hostOf("bad host")).toBe(EDIT_MESSAGES.upstreamHost);
    expect(hostOf("2001:db8::1::2")).toBe(EDIT_MESSAGES.upstreamHost);
    expect(hostOf("")).toBe(EDIT_MESSAGES.upstreamHostRequired);
  });

  it("checks the upstream port and username like the server", () => {
    expect(editErrors({ upstream_port: "" })).toEqual({ upstream_port: EDIT_MESSAGES.upstreamPortRequired });
    expect(editErrors({ upstream_port: "0" })).toEqual({ upstream_port: EDIT_MESSAGES.upstreamPort });
    expect(editErrors({ upstream_port: "65536" })).toEqual({ upstream_port: EDIT_MESSAGES.upstreamPort });
    expect(editErrors({ upstream_port: "65535" })).toEqual({});
    expect(editErrors({ upstream_username: " " })).toEqual({ upstream_username: EDIT_MESSAGES.upstreamUsernameRequired });
    expect(editErrors({ upstream_username: "a:b" })).toEqual({ upstream_username: EDIT_MESSAGES.upstreamUsername });
    expect(editErrors({ upstream_username: "x".repeat(101) })).toEqual({ upstream_username: EDIT_MESSAGES.upstreamUsernameLength });
  });

  it("keeps a stored upstream password when blank, and needs one when none is stored", () => {
    expect(editErrors({ upstream_password: "" }, true)).toEqual({});
    expect(editErrors({ upstream_password: "" }, false)).toEqual({ upstream_password: EDIT_MESSAGES.upstreamPasswordRequired });
    expect(editErrors({ upstream_password: "new secret" }, true)).toEqual({ upstream_password: EDIT_MESSAGES.upstreamPasswordCharacters });
    expect(editErrors({ upstream_password: "new:secret" }, true)).toEqual({ upstream_password: EDIT_MESSAGES.upstreamPasswordColons });
    expect(editErrors({ upstream_password: "New#Secret" }, false)).toEqual({});
  });

  it("checks a bind address for a direct exit and ignores the upstream fields then", () => {
    const direct = { exit: "direct" as const, upstream_host: "", upstream_port: "", upstream_username: "" };
    expect(editErrors({ ...direct }, false)).toEqual({});
    expect(editErrors({ ...direct, bind_address: "203.0.113.10" })).toEqual({});
    expect(editErrors({ ...direct, bind_address: "2001:db8::10" })).toEqual({});
    expect(editErrors({ ...direct, bind_address: "gateway.example.com" })).toEqual({ bind_address: EDIT_MESSAGES.bindAddress });
    expect(editErrors({ ...direct, bind_address: "256.1.1.1" })).toEqual({ bind_address: EDIT_MESSAGES.bindAddress });
  });

  it("sends only the chosen exit's fields, and the upstream password only when typed", () => {
    const parse = (change: Partial<EditInput>) => toProxyEdit(v.parse(editSchema(true), { ...EDIT, ...change }));
    expect(parse({})).toEqual({
      username: "shopuser1",
      password: "Shop#Secret2026",
      status: "AVAILABLE",
      exit: "upstream",
      upstream_host: "upstream.example.com",
      upstream_port: 8080,
      upstream_username: "seller",
      bandwidth_quota_gb: 0,
      max_connections: 0,
    });
    expect(parse({ upstream_password: "Fresh#1" })).toMatchObject({ upstream_password: "Fresh#1" });
    expect(parse({ exit: "direct", bind_address: " 203.0.113.10 " })).toEqual({
      username: "shopuser1",
      password: "Shop#Secret2026",
      status: "AVAILABLE",
      exit: "direct",
      bind_address: "203.0.113.10",
      bandwidth_quota_gb: 0,
      max_connections: 0,
    });
  });
});

describe("the edit form's limits (issue #16)", () => {
  it("takes whole numbers up to the server's bounds, blank as 0 (unlimited), and says so otherwise", () => {
    const parse = (change: Partial<EditInput>) => toProxyEdit(v.parse(editSchema(true), { ...EDIT, ...change }));
    expect(parse({ bandwidth_quota: " 10 ", max_connections: "100000" })).toMatchObject({
      bandwidth_quota_gb: 10,
      max_connections: 100000,
    });
    expect(parse({ bandwidth_quota: "", max_connections: "" })).toMatchObject({ bandwidth_quota_gb: 0, max_connections: 0 });
    expect(editErrors({ bandwidth_quota: "1000000" })).toEqual({});
    for (const bad of ["-1", "1.5", "1000001", "ten"]) {
      expect(editErrors({ bandwidth_quota: bad })).toEqual({ bandwidth_quota: EDIT_MESSAGES.bandwidthQuota });
    }
    for (const bad of ["-1", "2.5", "100001"]) {
      expect(editErrors({ max_connections: bad })).toEqual({ max_connections: EDIT_MESSAGES.maxConnections });
    }
  });
});

describe("the edit form's quota in MB (issue #28: a 500 MB trial)", () => {
  it("sends a quota typed in MB as bandwidth_quota_mb, whole MB up to the server's bound", () => {
    const parse = (change: Partial<EditInput>) => toProxyEdit(v.parse(editSchema(true), { ...EDIT, ...change }));
    const trial = parse({ bandwidth_quota: "500", bandwidth_quota_unit: "MB" });
    expect(trial).toMatchObject({ bandwidth_quota_mb: 500 });
    expect(trial).not.toHaveProperty("bandwidth_quota_gb");
    expect(editErrors({ bandwidth_quota: "1024000000", bandwidth_quota_unit: "MB" })).toEqual({});
    for (const bad of ["-1", "0.5", "1024000001"]) {
      expect(editErrors({ bandwidth_quota: bad, bandwidth_quota_unit: "MB" })).toEqual({ bandwidth_quota: EDIT_MESSAGES.bandwidthQuotaMb });
    }
  });

  it("shows a stored quota in whole GB when it is one, else in MB", () => {
    expect(quotaFields(0)).toEqual({ bandwidth_quota: "0", bandwidth_quota_unit: "GB" });
    expect(quotaFields(25 * GB)).toEqual({ bandwidth_quota: "25", bandwidth_quota_unit: "GB" });
    expect(quotaFields(500 * MB)).toEqual({ bandwidth_quota: "500", bandwidth_quota_unit: "MB" });
  });
});

describe("the edit form's customer password (#26 finding 7)", () => {
  const SHORT = INVENTORY_LIMITS.min_proxy_password_message;
  const passwordErrors = (password: string, stored = "") => {
    const result = v.safeParse(editSchema(true, stored), { ...EDIT, password });
    return result.success ? {} : v.flatten<ReturnType<typeof editSchema>>(result.issues).nested;
  };

  it("finding 7: refuses a new password shorter than 12 characters, as the server does", () => {
    expect(INVENTORY_LIMITS.min_proxy_password_length).toBe(12);
    for (const short of ["p", "secret", "Elevenchars"]) expect(passwordErrors(short)).toEqual({ password: [SHORT] });
    expect(SHORT).toMatch(/at least 12 characters/);
    expect(passwordErrors("Twelve#chars")).toEqual({});
    expect(passwordErrors("Tw3lve:chars")).toEqual({ password: ["Password cannot contain spaces or colons"] });
  });

  it("keeps a shorter password the proxy already has, so another edit does not change the customer's", () => {
    expect(passwordErrors("oldpw", "oldpw")).toEqual({});
    expect(passwordErrors("oldpw2", "oldpw")).toEqual({ password: [SHORT] });
  });
});
