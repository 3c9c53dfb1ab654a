// The console's reference list of places (country code -> name, states, cities), shared
// with the server: pb_hooks/lib/locations.json is what generate and import check against.
import { locations } from "@/lib/shared-data";

export interface CountryPlaces {
  name: string;
  states: Record<string, string[]>;
}

export const LOCATIONS: Readonly<Record<string, CountryPlaces>> = locations;

/** Where imported proxies go when the batch names no country. */
export const UNKNOWN_COUNTRY = "Unknown";

export const COUNTRY_CODES: readonly string[] = Object.keys(LOCATIONS);

/** "United States (US)" for a code in the list, else the stored value as it is ("Unknown", "PT"). */
export function countryLabel(code: string): string {
  const country = LOCATIONS[code];
  return country ? `${country.name} (${code})` : code;
}

export function statesOf(country: string): string[] {
  return Object.keys(LOCATIONS[country]?.states ?? {});
}

export function citiesOf(country: string, state: string): string[] {
  return LOCATIONS[country]?.states[state] ?? [];
}

/** "Los Angeles, California, US": the parts a proxy has. */
export function placeLabel(proxy: { city: string; state: string; country: string }): string {
  return [proxy.city, proxy.state, proxy.country].filter(Boolean).join(", ");
}
