import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { GATEWAY_PUBLIC_HOST_MESSAGE, listItems, SettingsFormSchema } from "@/features/console-settings/schemas";

/** The form's message for one gateway setting ("" when it passes). */
function messageOf(key: "gateway_public_host" | "gateway_bind_addresses" | "gateway_allowed_ranges", value: string): string {
  const result = v.safeParse(SettingsFormSchema.entries[key], value);
  return result.success ? "" : result.issues[0].message;
}

describe("the proxy gateway settings (issue #16)", () => {
  it("takes a host name or an IP address as the public host, or nothing", () => {
    expect(messageOf("gateway_public_host", "")).toBe("");
    expect(messageOf("gateway_public_host", " proxy.example.com ")).toBe("");
    expect(messageOf("gateway_public_host", "Proxy.Example.COM")).toBe("");
    expect(messageOf("gateway_public_host", "203.0.113.7")).toBe("");
    expect(messageOf("gateway_public_host", "[2001:db8::1]")).toBe("");
    expect(messageOf("gateway_public_host", "https://proxy.example.com")).toBe(GATEWAY_PUBLIC_HOST_MESSAGE);
    expect(messageOf("gateway_public_host", "bad host")).toBe(GATEWAY_PUBLIC_HOST_MESSAGE);
  });

  it("takes bind addresses one per line or comma separated, and names the ones that are not addresses", () => {
    expect(messageOf("gateway_bind_addresses", "")).toBe("");
    expect(messageOf("gateway_bind_addresses", "203.0.113.10,\n203.0.113.11 2001:db8::10")).toBe("");
    expect(messageOf("gateway_bind_addresses", "203.0.113.10, gateway.example.com")).toBe(
      "Gateway bind addresses: gateway.example.com is not an IP address; write them like 203.0.113.10, 2001:db8::10, or leave it empty",
    );
    expect(messageOf("gateway_bind_addresses", "1.2.3.256\n10.0.0.0/8")).toBe(
      "Gateway bind addresses: 1.2.3.256, 10.0.0.0/8 are not an IP address; write them like 203.0.113.10, 2001:db8::10, or leave it empty",
    );
  });

  it("takes CIDR ranges as allowed ranges", () => {
    expect(messageOf("gateway_allowed_ranges", "10.0.0.0/8\nfd00::/8, 192.168.1.5/32")).toBe("");
    expect(messageOf("gateway_allowed_ranges", "10.0.0.1")).toBe(
      "Gateway allowed ranges: 10.0.0.1 is not a CIDR range (address/prefix); write them like 10.0.0.0/8, 2001:db8::/32, or leave it empty",
    );
    expect(messageOf("gateway_allowed_ranges", "10.0.0.0/33")).toContain("10.0.0.0/33 is not a CIDR range");
    expect(messageOf("gateway_allowed_ranges", "fd00::/129")).toContain("fd00::/129 is not a CIDR range");
  });

  it("reads a list as the server stores it: brackets dropped, lower case, no duplicates", () => {
    expect(listItems(" 203.0.113.10,203.0.113.10\n[2001:DB8::10] ")).toEqual(["203.0.113.10", "2001:db8::10"]);
  });
});
