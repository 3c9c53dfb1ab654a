// The location reference (issue #16): every ISO 3166-1 country, shared by the hooks
// (pb_hooks/lib/iso-countries.json, lib/proxies/places.js) and the pages (src/lib/countries.ts).
import { describe, expect, it } from "vitest";
import isoCountries from "../../pocketbase/pb_hooks/lib/iso-countries.json" with { type: "json" };
import locations from "../../pocketbase/pb_hooks/lib/locations.json" with { type: "json" };
import {
  ALL_COUNTRIES,
  COUNTRIES_SUGGESTED_FIRST,
  countryLabel,
  countryName,
  isCountryCode,
  listedCities,
  listedStates,
  normalizeCountry,
  searchCountries,
  SUGGESTED_COUNTRY_CODES,
} from "@/lib/countries";

const ISO: Record<string, string> = isoCountries;

describe("the ISO 3166-1 country list", () => {
  it("has the 249 countries, each a unique two-letter code with a name", () => {
    const codes = Object.keys(ISO);
    expect(codes).toHaveLength(249);
    expect(new Set(codes).size).toBe(249);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(new Set(Object.values(ISO)).size).toBe(249);
    for (const name of Object.values(ISO)) expect(name.trim()).toBe(name);
    expect(ALL_COUNTRIES).toHaveLength(249);
  });

  it("names known codes as the standard does", () => {
    expect(ISO).toMatchObject({
      US: "United States",
      GB: "United Kingdom",
      DE: "Germany",
      NO: "Norway",
      KE: "Kenya",
      JP: "Japan",
      BR: "Brazil",
      CI: "Côte d'Ivoire",
      AX: "Åland Islands",
      ZW: "Zimbabwe",
      AD: "Andorra",
    });
    // Not countries of ISO 3166-1 (reserved, withdrawn or user-assigned codes).
    for (const code of ["UK", "EU", "XK", "SU", "YU", "ZZ"]) expect(ISO[code]).toBeUndefined();
  });

  it("agrees with the browser's region names on every code", () => {
    const regions = new Intl.DisplayNames(["en"], { type: "region" });
    for (const code of Object.keys(ISO)) expect(regions.of(code), code).not.toBe(code);
  });

  it("keeps the built-in state and city lists for countries of the list", () => {
    expect(Object.keys(locations)).toEqual(["US", "CA", "GB", "DE", "FR", "AU", "JP", "BR"]);
    for (const code of Object.keys(locations)) expect(ISO[code], code).toBeDefined();
    expect(SUGGESTED_COUNTRY_CODES).toEqual(Object.keys(locations));
    expect(listedStates("uk")).toContain("Scotland");
    expect(listedCities("GB", "Scotland")).toContain("Edinburgh");
    expect(listedStates("NO")).toEqual([]);
  });
});

describe("country names for the pickers", () => {
  it("names codes, the old UK too, and keeps unknown values as they are", () => {
    const names = { NO: "Norway", UK: "United Kingdom", Unknown: "Unknown" };
    for (const [value, name] of Object.entries(names)) expect(countryName(value), value).toBe(name);
    expect(countryLabel("KE")).toBe("Kenya (KE)");
    expect(countryLabel("XX-1")).toBe("XX-1");
    expect(normalizeCountry(" uk ")).toBe("GB");
    expect(isCountryCode("ke")).toBe(true);
    expect(isCountryCode("XX")).toBe(false);
  });

  it("suggests the built-in countries first, then searches the whole list by name or code", () => {
    expect(COUNTRIES_SUGGESTED_FIRST.slice(0, 3).map((c) => c.name)).toEqual(["United States", "Canada", "United Kingdom"]);
    expect(COUNTRIES_SUGGESTED_FIRST).toHaveLength(249);
    expect(searchCountries("nor").map((c) => c.code)).toEqual(expect.arrayContaining(["NO", "MP", "KP", "MK"]));
    expect(searchCountries("ke").map((c) => c.code)).toContain("KE");
    expect(searchCountries("KENYA")).toEqual([{ code: "KE", name: "Kenya" }]);
    expect(searchCountries("")).toHaveLength(249);
  });
});
