// The renewal quote: today's unit prices times the proxies, against the balance.
import { describe, expect, it } from "vitest";
import { proxyCount, renewalQuote } from "@/features/proxies/renewal";

describe("renewalQuote", () => {
  it("prices each type and totals", () => {
    const quote = renewalQuote(
      [{ type: "RESIDENTIAL" }, { type: "DATACENTER" }, { type: "RESIDENTIAL" }],
      { RESIDENTIAL: 450, DATACENTER: 150 },
      2000,
    );
    expect(quote.lines).toEqual([
      { type: "RESIDENTIAL", label: "Residential", count: 2, unitCents: 450, totalCents: 900 },
      { type: "DATACENTER", label: "Datacenter", count: 1, unitCents: 150, totalCents: 150 },
    ]);
    expect(quote.totalCents).toBe(1050);
    expect(quote.shortCents).toBe(0);
    expect(quote.unpriced).toEqual([]);
  });

  it("says how much the balance is short", () => {
    expect(renewalQuote([{ type: "RESIDENTIAL" }], { RESIDENTIAL: 450 }, 400).shortCents).toBe(50);
    expect(renewalQuote([{ type: "RESIDENTIAL" }], { RESIDENTIAL: 450 }, 450).shortCents).toBe(0);
  });

  it("lists types that are not for sale", () => {
    const quote = renewalQuote([{ type: "SOCKS5" }, { type: "HTTP" }], { HTTP: 300 }, 1000);
    expect(quote.unpriced).toEqual(["SOCKS5"]);
    expect(quote.totalCents).toBe(300);
  });

  it("counts proxies in words", () => {
    expect(proxyCount(1)).toBe("1 proxy");
    expect(proxyCount(1000)).toBe("1,000 proxies");
  });
});
