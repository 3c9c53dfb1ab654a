// My Proxies exports: the CSV columns (quoted, neutralised) and the two plain lists.
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
  proxy({}),
  proxy({ id: "p2", host: "h2.example", port: 9000, city: '=HYPERLINK("x")', state: 'Say, "hi"', status: "EXPIRED" }),
];

describe("proxyExport", () => {
  it("writes every proxy with the nine columns, every value quoted, formulas neutralised", () => {
    const file = proxyExport("csv", rows, new Date(2026, 0, 2));
    expect(file.fileName).toBe("proxies-2026-01-02.csv");
    expect(file.mime).toContain("text/csv");
    const lines = file.content.split("\r\n");
    expect(lines[0]).toBe(PROXY_CSV_HEADER.map((h) => `"${h}"`).join(","));
    expect(lines[1]).toBe('"h1.example","8080","user1","Secret1","RESIDENTIAL","US","California","Los Angeles","ASSIGNED"');
    const parsed = Papa.parse<string[]>(file.content).data;
    expect(parsed[2]).toEqual(["h2.example", "9000", "user1", "Secret1", "RESIDENTIAL", "US", 'Say, "hi"', '\'=HYPERLINK("x")', "EXPIRED"]);
  });

  it("writes the two plain lists, one proxy a line", () => {
    expect(colonList(rows)).toBe("h1.example:8080:user1:Secret1\nh2.example:9000:user1:Secret1\n");
    expect(urlList(rows)).toBe("user1:Secret1@h1.example:8080\nuser1:Secret1@h2.example:9000\n");
    expect(proxyExport("colon", rows, new Date(2026, 0, 2)).fileName).toBe("proxies-2026-01-02.txt");
    expect(proxyExport("url", rows, new Date(2026, 0, 2)).fileName).toBe("proxies-auth-2026-01-02.txt");
    expect(proxyExport("url", [], new Date(2026, 0, 2)).content).toBe("");
  });
});
