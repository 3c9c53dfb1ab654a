// My Proxies exports: the CSV columns (quoted, neutralised; the status as the page says it,
// the expiry as an ISO 8601 UTC time) and the plain lists (IPv6 hosts in brackets; the
// http:// and socks5h:// URLs on each protocol's port, credentials percent-encoded).
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { colonList, httpList, PROXY_CSV_HEADER, proxyExport, socksList, urlList } from "@/features/proxies/export";
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
  bandwidth_quota_bytes: 0,
  max_connections: 0,
  exit_down_at: "",
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

  it("writes the http:// and socks5h:// URL lists, each on its protocol's port, leaving out proxies without it", () => {
    const mixed = [
      { ...proxy({ host: "gw.example", port: 3128, password: "p@ss:w" }), ports: { http: 3128, socks5: 1080 } },
      { ...proxy({ id: "p2", host: "gw.example", port: 1080, username: "user2", type: "SOCKS5" }), ports: { socks5: 1080 } },
      // An answer without `ports` (an older server): HTTPS on its port.
      proxy({ id: "p3", host: "2001:db8::1", port: 8080, username: "user3", type: "HTTPS" }),
    ];
    expect(httpList(mixed)).toBe("http://user1:p%40ss%3Aw@gw.example:3128\nhttp://user3:Secret1@[2001:db8::1]:8080\n");
    expect(socksList(mixed)).toBe("socks5h://user1:p%40ss%3Aw@gw.example:1080\nsocks5h://user2:Secret1@gw.example:1080\n");
    const http = proxyExport("http", mixed, new Date(2026, 0, 2));
    expect(http.fileName).toBe("proxies-http-2026-01-02.txt");
    expect(http.content).toBe(httpList(mixed));
    const socks = proxyExport("socks5", mixed, new Date(2026, 0, 2));
    expect(socks.fileName).toBe("proxies-socks5h-2026-01-02.txt");
    expect(socks.content).toBe(socksList(mixed));
  });

  it("writes an IPv6 host in brackets where a port follows it, and bare in the CSV's Host column", () => {
    const v6 = [proxy({ host: "2001:db8::1", port: 8080 })];
    expect(colonList(v6)).toBe("[2001:db8::1]:8080:user1:Secret1\n");
    expect(urlList(v6)).toBe("user1:Secret1@[2001:db8::1]:8080\n");
    expect(Papa.parse<string[]>(proxyExport("csv", v6).content).data[1]?.[0]).toBe("2001:db8::1");
  });
});
