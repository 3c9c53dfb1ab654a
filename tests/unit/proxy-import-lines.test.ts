// Reading proxy import lines (pocketbase/pb_hooks/lib/proxies/import-lines.js, run as the
// hooks run it: a CommonJS script with no Node globals): host:port:username:password, IPv6
// hosts in brackets (addresses read by lib/core/ip-address.js).
import { describe, expect, it } from "vitest";
import { hookModule } from "./support/hook-module.ts";

type Split = { host: string; port: string; username: string; password: string; ipv6: boolean } | { reason: string };
const lines = hookModule<{ splitImportLine: (line: string) => Split }>("lib/proxies/import-lines.js");
const ip = hookModule<{ isIpv6: (text: string) => boolean }>("lib/core/ip-address.js");

/** What a line `<host>:8080:user:pass` splits into. */
const userPass = (host: string, ipv6: boolean) => ({ host, port: "8080", username: "user", password: "pass", ipv6 });

describe("splitImportLine", () => {
  it("reads host:port:username:password, the host lower-cased", () => {
    expect(lines.splitImportLine("Proxy.Example:8080:user:pass")).toEqual(userPass("proxy.example", false));
  });

  it("reads an IPv6 host in brackets and gives it without them", () => {
    expect(lines.splitImportLine("[2001:DB8::1]:8080:user:pass")).toEqual(userPass("2001:db8::1", true));
    expect(lines.splitImportLine("[::ffff:192.0.2.1]:1080:u:p")).toMatchObject({ host: "::ffff:192.0.2.1", ipv6: true });
  });

  it("says why a line is refused", () => {
    const reason = (line: string) => {
      const split = lines.splitImportLine(line);
      return "reason" in split ? split.reason : "";
    };
    expect(reason("2001:db8::1:8080:user:pass")).toBe("Malformed: write an IPv6 host in brackets, [2001:db8::1]:port:username:password");
    expect(reason("[2001:db8::zz]:8080:user:pass")).toBe("Malformed: the host in brackets must be an IPv6 address");
    expect(reason("[example.com]:8080:user:pass")).toBe("Malformed: the host in brackets must be an IPv6 address");
    for (const line of ["[2001:db8::1]8080:user:pass", "[2001:db8::1:8080:user:pass", "[2001:db8::1]:8080:user", "[]:8080:u:p", "a:1:u"]) {
      expect(reason(line), line).toBe("Malformed: expected host:port:username:password");
    }
  });
});

describe("isIpv6", () => {
  it("accepts IPv6 addresses and refuses the rest", () => {
    for (const ok of ["::1", "::", "2001:db8::1", "2001:db8:0:0:0:0:0:1", "fe80::1:2:3:4", "::ffff:192.0.2.1", "1:2:3:4:5:6:7::"]) {
      expect(ip.isIpv6(ok), ok).toBe(true);
    }
    for (const bad of [
      "",
      ":",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::1",
      "g::1",
      "::ffff:256.0.0.1",
      "fe80::1%eth0",
      "1:2:3:4:5:6:7:8::",
    ]) {
      expect(ip.isIpv6(bad), bad).toBe(false);
    }
  });
});
