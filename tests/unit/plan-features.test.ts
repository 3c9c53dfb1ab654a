// Plans promise only what is true (issue #28): the seeded plan features name the facts
// they state ({session_max_hours}) instead of a number of their own, the page fills them
// from the contract (the gateway's Go test holds the contract's facts to the gateway), and
// the marketing copy names no product the shop does not sell.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contractFacts } from "@/lib/api-contract/facts";
import { TERM_DAYS } from "@/lib/catalog";
import { planFeatures, unknownPlaceholders } from "@/lib/plan-features";
import seeded from "../../pocketbase/pb_hooks/lib/default-plans.json" with { type: "json" };

const facts = contractFacts();

describe("plan feature texts", () => {
  it("fill each placeholder from its fact and leave plain text alone", () => {
    const shown = planFeatures(
      ["Sticky sessions up to {session_max_hours} hours", "{session_max_minutes} minutes", "For {term_days} days", "Plain text", "{typo}"],
      { countries: 12 },
    );
    expect(shown).toEqual([
      `Sticky sessions up to ${facts.gateway_sessions.max_minutes / 60} hours`,
      `${facts.gateway_sessions.max_minutes.toLocaleString("en-US")} minutes`,
      `For ${TERM_DAYS} days`,
      "Plain text",
      "{typo}",
    ]);
    expect(unknownPlaceholders("a {typo} and {countries}")).toEqual(["typo"]);
  });

  it("leave out a line whose fact is unknown (no country in stock)", () => {
    expect(planFeatures(["Stock in {countries} countries", "UDP support"], { countries: 0 })).toEqual(["UDP support"]);
    expect(planFeatures(["Stock in {countries} countries"], { countries: 1234 })).toEqual(["Stock in 1,234 countries"]);
  });

  it("are seeded naming the facts: no number of minutes, hours, days or countries of their own", () => {
    const texts = seeded.flatMap((plan) => plan.features);
    expect(texts.flatMap(unknownPlaceholders)).toEqual([]);
    expect(texts.filter((t) => /\b\d[\d,]*\s*(minutes?|hours?|days?|countries)\b/i.test(t))).toEqual([]);
    const residential = planFeatures(seeded.find((p) => p.type === "RESIDENTIAL")?.features ?? [], { countries: 3 });
    expect(residential).toContain("Sticky sessions up to 24 hours");
    expect(facts.gateway_sessions.max_minutes).toBe(24 * 60);
    // What the SOCKS5 and HTTPS plans sell, the gateway's ports carry (UDP ASSOCIATE, TLS).
    expect(seeded.find((p) => p.type === "SOCKS5")?.features).toContain("UDP support");
    expect(facts.gateway_ports.by_type.SOCKS5).toContain("socks5");
    expect(seeded.find((p) => p.type === "HTTPS")?.features).toContain("TLS to the proxy");
    expect(facts.gateway_ports.by_type.HTTPS).toContain("https");
  });
});

describe("the marketing copy", () => {
  it("names no mobile, ISP or IPv6 proxies (the shop sells none)", () => {
    for (const file of ["home.yaml", "use-cases.yaml", "docs.yaml"]) {
      const text = readFileSync(`src/content/marketing/${file}`, "utf8");
      expect(text, file).not.toMatch(/\bmobile\b|\bISP\b|IPv6|carrier/i);
    }
    expect(readFileSync("src/features/marketing/HomePage.astro", "utf8")).not.toMatch(/IPv6|mobile/i);
  });
});
