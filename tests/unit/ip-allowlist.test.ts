// The customer's IP allowlist entries (pocketbase/pb_hooks/lib/accounts/ip-allowlist.js, run
// as the hooks run it: a CommonJS script with no Node globals): IPv4 and IPv6 addresses and
// CIDR ranges, normalised as Go's net/netip writes them (the gateway parses them with it).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { replaceIpAllowlist } from "@/lib/api-contract/account";
import { hookModule } from "./support/hook-module.ts";

type Parsed = { entry: string } | { error: string };
const allowlist = hookModule<{
  MAX_ENTRIES: number;
  parseEntry: (raw: string) => Parsed;
  normaliseList: (items: unknown[]) => { entries: string[] } | { error: string };
  entriesFromBody: (body: Record<string, unknown>) => { entries: string[] } | { error: string };
  storedList: (stored: string) => string[];
}>("lib/accounts/ip-allowlist.js");

const entry = (raw: string) => {
  const parsed = allowlist.parseEntry(raw);
  return "entry" in parsed ? parsed.entry : `ERROR ${parsed.error}`;
};

/** Each entry as written (a key) is kept as its value. */
const expectKept = (kept: Record<string, string>) => {
  for (const [raw, want] of Object.entries(kept)) expect(entry(raw), raw).toBe(want);
};

describe("parseEntry", () => {
  it("keeps an address an address, trimmed and lower-cased", () => {
    expectKept({
      " 203.0.113.7 ": "203.0.113.7",
      "0.0.0.0": "0.0.0.0",
      "255.255.255.255": "255.255.255.255",
      "::1": "::1",
      "::": "::",
      "2001:DB8::1": "2001:db8::1",
    });
  });

  it("writes IPv6 as RFC 5952 (Go's netip) does", () => {
    expectKept({
      "2001:0db8:0000:0000:0000:0000:0000:0001": "2001:db8::1",
      "2001:db8:0:0:1:0:0:1": "2001:db8::1:0:0:1", // the first of two equal runs
      "2001:db8:0:1:0:0:0:1": "2001:db8:0:1::1", // the longest run
      "2001:db8:0:1:2:3:4:5": "2001:db8:0:1:2:3:4:5", // a single zero group stays
      "fe80:0:0:0:0:0:0:0": "fe80::",
      "1:2:3:4:5:6:7::": "1:2:3:4:5:6:7:0",
      "::ffff:1.2.3.4": "::ffff:1.2.3.4",
      "::FFFF:0102:0304": "::ffff:1.2.3.4",
      "::1.2.3.4": "::102:304",
      "64:ff9b::192.0.2.33": "64:ff9b::c000:221",
    });
  });

  it("zeroes a range's host bits", () => {
    expectKept({
      "10.1.2.3/8": "10.0.0.0/8",
      "192.168.1.77/24": "192.168.1.0/24",
      "172.31.255.255/12": "172.16.0.0/12",
      "203.0.113.129/25": "203.0.113.128/25",
      "255.255.255.255/1": "128.0.0.0/1",
      "2001:db8::/32": "2001:db8::/32",
      "2001:DB8:ABCD:12::1/32": "2001:db8::/32",
      "2001:db8:abcd:12ff::1/60": "2001:db8:abcd:12f0::/60",
      "::ffff:1.2.3.4/120": "::ffff:1.2.3.0/120",
      "::ffff:1.2.3.4/97": "::ffff:0.0.0.0/97",
      "::ffff:1.2.3.4/95": "::fffe:0:0/95",
      "fe80::1/10": "fe80::/10",
    });
  });

  it("reads a range of one address as that address", () => {
    expectKept({
      "1.2.3.4/32": "1.2.3.4",
      "2001:db8::1/128": "2001:db8::1",
    });
  });

  it("refuses what is not an address or range, naming it", () => {
    for (const bad of [
      "10.0.0.300",
      "10.0.0",
      "10.0.0.1.2",
      "010.0.0.1",
      "1.2.3.-4",
      "1.2.3.4/33",
      "1.2.3.4/",
      "1.2.3.4/08",
      "1.2.3.4/-1",
      "1.2.3.4/8/8",
      "2001:db8::/129",
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::1",
      "g::1",
      ":1::",
      ":::",
      "::ffff:256.0.0.1",
      "1.2.3.4::",
      "fe80::1%eth0",
      "[::1]",
      "example.com",
      "1.2.3.4 5.6.7.8",
      "１.2.3.4",
      "' OR '1'='1",
    ]) {
      expect(entry(bad), bad).toBe(`ERROR '${bad.trim()}' is not an IP address or CIDR range.`);
    }
    expect(entry(" 10.0.0.300 ")).toBe("ERROR '10.0.0.300' is not an IP address or CIDR range.");
    expect(entry("")).toBe("ERROR '' is not an IP address or CIDR range.");
  });

  it("cuts a long bad entry in its message", () => {
    expect(entry("a".repeat(500))).toBe(`ERROR '${"a".repeat(60)}...' is not an IP address or CIDR range.`);
  });

  it("refuses a /0 range: it means everyone", () => {
    for (const everyone of ["0.0.0.0/0", "10.0.0.0/0", "::/0", "2001:db8::/0", "::ffff:0.0.0.0/96", "::ffff:10.0.0.1/96"]) {
      expect(entry(everyone), everyone).toBe(
        `ERROR '${everyone}' would let every address in: to remove the restriction, clear the list instead.`,
      );
    }
  });
});

describe("normaliseList", () => {
  it("normalises every entry, drops duplicates (first kept) and blanks", () => {
    expect(allowlist.normaliseList(["10.1.2.3/8", "", "  ", "10.0.0.0/8", "::1", "0:0:0:0:0:0:0:1", "1.2.3.4/32", "1.2.3.4"])).toEqual({
      entries: ["10.0.0.0/8", "::1", "1.2.3.4"],
    });
    expect(allowlist.normaliseList([])).toEqual({ entries: [] });
  });

  it("names every bad entry at once, in order (issue #28 item 11)", () => {
    expect(allowlist.normaliseList(["1.2.3.4", "nope"])).toEqual({ error: "'nope' is not an IP address or CIDR range." });
    expect(allowlist.normaliseList(["1.2.3.4", "nope", "0.0.0.0/0", "also bad"])).toEqual({
      error:
        "'nope' is not an IP address or CIDR range. '0.0.0.0/0' would let every address in: to remove the restriction, clear the list instead. 'also bad' is not an IP address or CIDR range.",
    });
    const many = allowlist.normaliseList(Array.from({ length: 22 }, (_, i) => `bad${i}`));
    expect("error" in many && many.error).toMatch(
      /^'bad0' is .* 'bad19' is not an IP address or CIDR range\. And 2 more entries like these\.$/,
    );
  });

  it("leaves an entry that is not a text, and entries that are not a list, to the document", () => {
    const issues = (body: unknown) => {
      const result = v.safeParse(replaceIpAllowlist.body, body);
      return result.success ? {} : v.flatten(result.issues).nested;
    };
    expect(issues({ entries: ["1.2.3.4", 5] })).toEqual({
      "entries.1": ["Each entry must be a text: an IP address (203.0.113.7, 2001:db8::1) or a CIDR range (203.0.113.0/24)."],
    });
    expect(issues({ entries: "1.2.3.4" })).toEqual({
      entries: ["Entries must be a list of IP addresses or CIDR ranges ([] removes the restriction)."],
    });
  });

  it("holds at most 100 entries, counted after duplicates are removed", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `10.0.${i}.1`);
    expect(allowlist.normaliseList([...hundred, "10.0.0.1"])).toEqual({ entries: hundred });
    expect(allowlist.normaliseList([...hundred, "10.1.0.1"])).toEqual({
      error: "The list can hold at most 100 addresses or ranges: use ranges to cover more.",
    });
  });
});

describe("entriesFromBody", () => {
  it("takes entries, or a text split at new lines, commas and spaces", () => {
    expect(allowlist.entriesFromBody({ entries: ["1.2.3.4"] })).toEqual({ entries: ["1.2.3.4"] });
    expect(allowlist.entriesFromBody({ text: "1.2.3.4\n10.1.2.3/8, 2001:db8::1\r\n\n ::1 ; fe80::/10" })).toEqual({
      entries: ["1.2.3.4", "10.0.0.0/8", "2001:db8::1", "::1", "fe80::/10"],
    });
    expect(allowlist.entriesFromBody({ text: "" })).toEqual({ entries: [] });
    expect(allowlist.entriesFromBody({ entries: [], text: "1.2.3.4" })).toEqual({ entries: [] });
  });

  it("refuses a body without a list", () => {
    for (const body of [{}, { entries: "1.2.3.4" }, { entries: null }, { entries: { a: "1.2.3.4" } }, { text: 5 }]) {
      expect(allowlist.entriesFromBody(body), JSON.stringify(body)).toHaveProperty("error");
    }
    expect(allowlist.entriesFromBody({ entries: Array.from({ length: 1001 }, () => "1.2.3.4") })).toHaveProperty("error");
    expect(allowlist.entriesFromBody({ text: "1.2.3.4 ".repeat(2000) })).toHaveProperty("error");
  });
});

describe("storedList", () => {
  it("reads the stored JSON, anything but a list of texts as none", () => {
    expect(allowlist.storedList('["1.2.3.4","::1"]')).toEqual(["1.2.3.4", "::1"]);
    for (const stored of ["", "null", "[]", "{}", '"1.2.3.4"', "not json"]) expect(allowlist.storedList(stored), stored).toEqual([]);
  });
});
