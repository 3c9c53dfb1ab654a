// Generate and Import offer every ISO 3166-1 country (issue #28 item 4), from the shop's one list.
import { describe, expect, it } from "vitest";
import { isoCountries } from "@/lib/shared-data";
import { citiesOf, COUNTRY_CODES, countryLabel, statesOf } from "@/features/console-proxies/locations";

describe("the console's country pickers", () => {
  it("offer every ISO country, the ones with a state list first, and find Norway", () => {
    expect([...COUNTRY_CODES].sort()).toEqual(Object.keys(isoCountries).sort());
    expect(COUNTRY_CODES.slice(0, 3)).toEqual(["US", "CA", "GB"]);
    const labels = COUNTRY_CODES.map(countryLabel);
    expect(labels.filter((label) => label.toLowerCase().includes("norway"))).toEqual(["Norway (NO)"]);
    expect(labels).toContain("Kenya (KE)");
  });

  it("list states and cities where the country has them, none elsewhere", () => {
    expect(statesOf("US")).toContain("California");
    expect(citiesOf("US", "California")).toContain("Los Angeles");
    expect(statesOf("NO")).toEqual([]);
    expect(countryLabel("Unknown")).toBe("Unknown");
  });
});
