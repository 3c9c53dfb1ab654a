// The console's places for Generate and Import: every ISO 3166-1 country from the one list
// the shop uses (src/lib/countries.ts, read from pb_hooks/lib/iso-countries.json, which is
// what the server checks a country against), the ones with a built-in state and city list
// first; states and cities come from that list where a country has one.
import { COUNTRIES_SUGGESTED_FIRST, countryLabel, listedCities, listedStates } from "@/lib/countries";

export { countryLabel };

/** Where imported proxies go when the batch names no country. */
export const UNKNOWN_COUNTRY = "Unknown";

/** Every country code, the suggested ones first ("US", "CA", … then "AF", "AX", …). */
export const COUNTRY_CODES: readonly string[] = COUNTRIES_SUGGESTED_FIRST.map((c) => c.code);

export const statesOf = (country: string): string[] => listedStates(country);

export const citiesOf = (country: string, state: string): string[] => listedCities(country, state);

/** "Los Angeles, California, US": the parts a proxy has. */
export function placeLabel(proxy: { city: string; state: string; country: string }): string {
  return [proxy.city, proxy.state, proxy.country].filter(Boolean).join(", ");
}
