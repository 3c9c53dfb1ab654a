// My Proxies exports: the CSV columns (quoted, neutralised; the status as the page says it,
// the expiry as an ISO 8601 UTC time) and the two plain lists (IPv6 hosts in brackets).
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { colonList, PROXY_CSV_HEADER, proxyExport, urlList } from "@/features/proxies/export";
import type { ProxyRecord } from "@/lib/pocketbase-types";

const proxy = (over: Partial<ProxyRecord>): ProxyRecord => ({
  id: "p1",
  collectionId: "c",
  collectionName: "proxies",
  host: "h1.example",
  port: 8080,
  username: "user1",
  password: "Secret1",
  type: "RESIDENTIAL",
  country: "US",
  state: "California",
  city: "Los Angeles",
  status: "ASSIGNED",
  assigned_to_user_id: "u1",
  expires_at: "",
  auto_renew: false,
  expiry_notice_sent_at: "",
  created: "",
  updated: "",
  ...over,
});

const rows = [
  proxy({ expires_at: "2026-02-01 12:30:00.000Z" }),
  proxy({ id: "p2", host: "h2.example", port: 9000, city: '=HYPERLINK("x")', state: 'Say, "hi"', status: "EXPIRED" }),
];

describe("proxyExport", () => {
  it("writes every proxy with the ten columns, every value quoted, formulas neutralised", () => {
    const file = proxyExport("csv", rows, new Date(2026, 0, 2));
    expect(file.fileName).toBe("proxies-2026-01-02.csv");
    expect(file.mime).toContain("text/csv");
    const lines = file.content.split("\r\n");
    expect(lines[0]).toBe('"Host","Port","Username","Password","Type","Country","State","City","Status","Expires (UTC)"');
    expect(lines[0]).toBe(PROXY_CSV_HEADER.map((h) => `"${h}"`).join(","));
    // The status as the page shows it ("Active", not "ASSIGNED"), the expiry in ISO 8601 UTC.
    expect(lines[1]).toBe(
      '"h1.example","8080","user1","Secret1","RESIDENTIAL","US","California","Los Angeles","Active","2026-02-01T12:30:00Z"',
    );
    const parsed = Papa.parse<string[]>(file.content).data;
    expect(parsed[2]).toEqual([
      "h2.example",
      "9000",
      "user1",
      "Secret1",
      "RESIDENTIAL",
      "US",
      'Say, "hi"',
      '\'=HYPERLINK("x")',
      "Expired",
      "",
    ]);
  });

  it("writes the two plain lists, one proxy a line", () => {
    expect(colonList(rows)).toBe("h1.example:8080:user1:Secret1\nh2.example:9000:user1:Secret1\n");
    expect(urlList(rows)).toBe("user1:Secret1@h1.example:8080\nuser1:Secret1@h2.example:9000\n");
    expect(proxyExport("colon", rows, new Date(2026, 0, 2)).fileName).toBe("proxies-2026-01-02.txt");
    expect(proxyExport("url", rows, new Date(2026, 0, 2)).fileName).toBe("proxies-auth-2026-01-02.txt");
    expect(proxyExport("url", [], new Date(2026, 0, 2)).content).toBe("");
  });

  it("writes an IPv6 host in brackets where a port follows it, and bare in the CSV's Host column", () => {
    const v6 = [proxy({ host: "2001:db8::1", port: 8080 })];
    expect(colonList(v6)).toBe("[2001:db8::1]:8080:user1:Secret1\n");
    expect(urlList(v6)).toBe("user1:Secret1@[2001:db8::1]:8080\n");
    expect(Papa.parse<string[]>(proxyExport("csv", v6).content).data[1]?.[0]).toBe("2001:db8::1");
  });
});
