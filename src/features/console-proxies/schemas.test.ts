import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { EditSchema, EMPTY_GENERATE, GenerateSchema } from "@/features/console-proxies/schemas";

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

describe("the edit form's host", () => {
  const hostOf = (host: string) => {
    const result = v.safeParse(EditSchema.entries.host, host);
    return result.success ? result.output : result.issues[0].message;
  };

  it("takes a host name, an IPv4 address and an IPv6 address (brackets dropped), and names all three when wrong", () => {
    expect(hostOf(" Proxy.Example.COM ")).toBe("proxy.example.com");
    expect(hostOf("203.0.113.7")).toBe("203.0.113.7");
    expect(hostOf("[2001:DB8::1]")).toBe("2001:db8::1");
    expect(hostOf("2001:db8::1")).toBe("2001:db8::1");
    expect(hostOf("bad host")).toBe("Host must be a host name, an IPv4 address or an IPv6 address");
    expect(hostOf("")).toBe("Host is required");
  });
});
