// The webhook endpoint's save-time address check (pb_hooks/lib/webhooks/endpoint-url.js)
// outside the embedded default: IPv6 forms that carry an IPv4 address are that address
// (issue #26 finding 9). The API side (a real PocketBase with the guard closed) is in
// tests/api/webhook-delivery.test.ts.
import { describe, expect, it } from "vitest";
import { hookModule } from "./support/hook-module.ts";

interface EndpointUrl {
  MESSAGES: { private: string };
  endpointUrlProblem(value: unknown, options?: { embedded?: boolean }): string;
  isLoopbackHost(host: string): boolean;
}

const check = hookModule<EndpointUrl>("lib/webhooks/endpoint-url.js");
const problem = (url: string) => check.endpointUrlProblem(url, { embedded: false });

describe("finding 9: IPv6 forms that wrap an IPv4 address", () => {
  it.each([
    ["NAT64 of 127.0.0.1", "https://[64:ff9b::7f00:1]/"],
    ["NAT64 of 127.0.0.1, dotted", "https://[64:ff9b::127.0.0.1]/"],
    ["NAT64 of 10.0.0.1", "https://[64:ff9b::a00:1]/"],
    ["NAT64 of the metadata address", "https://[64:ff9b::169.254.169.254]/latest/meta-data"],
    ["6to4 of 127.0.0.1", "https://[2002:7f00:1::]/"],
    ["6to4 of 192.168.1.1, with a host part", "https://[2002:c0a8:101::1]:8443/"],
    ["6to4 of 169.254.169.254", "https://[2002:a9fe:a9fe::]/"],
    ["IPv4-compatible 127.0.0.1", "https://[::127.0.0.1]/"],
    ["IPv4-compatible 127.0.0.1, hex", "https://[::7f00:1]/"],
    ["IPv4-compatible 172.16.0.5", "https://[::172.16.0.5]/"],
    ["IPv4-mapped 127.0.0.1", "https://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped 10.1.2.3, hex", "https://[::ffff:a01:203]/"],
  ])("finding 9: refuses %s (%s) like the IPv4 address itself", (_, url) => {
    expect(problem(url)).toBe(check.MESSAGES.private);
  });

  it.each([
    ["NAT64 of 93.184.215.14", "https://[64:ff9b::5db8:d70e]/"],
    ["6to4 of 93.184.215.14", "https://[2002:5db8:d70e::1]/"],
    ["IPv4-compatible 93.184.215.14", "https://[::93.184.215.14]/"],
    ["IPv4-mapped 93.184.215.14", "https://[::ffff:93.184.215.14]/"],
    ["a public IPv6 address", "https://[2001:4860:4860::8888]/"],
  ])("accepts %s (%s): the address it carries is public", (_, url) => {
    expect(problem(url)).toBe("");
  });

  it("still refuses the plain private forms and the local-use NAT64 range", () => {
    for (const url of [
      "https://127.0.0.1/",
      "https://[::1]/",
      "https://[::]/",
      "https://[fd00:ec2::254]/",
      "https://[64:ff9b:1::5db8:d70e]/",
    ]) {
      expect(problem(url), url).toBe(check.MESSAGES.private);
    }
  });

  it("allows them all in the embedded default, as before", () => {
    expect(check.endpointUrlProblem("http://[64:ff9b::7f00:1]/", { embedded: true })).toBe("");
  });

  it("counts ::ffff:127.0.0.1 as loopback for the embedded default, as Go's netip does; NAT64 and 6to4 forms are not", () => {
    expect(check.isLoopbackHost("::ffff:127.0.0.1")).toBe(true);
    expect(check.isLoopbackHost("[::1]")).toBe(true);
    expect(check.isLoopbackHost("::ffff:10.0.0.1")).toBe(false);
    expect(check.isLoopbackHost("64:ff9b::7f00:1")).toBe(false);
    expect(check.isLoopbackHost("2002:7f00:1::")).toBe(false);
  });
});
