// Locations as customers and admins see them: every ISO 3166-1 country (alpha-2 code and
// English short name), shared with the server (pb_hooks/lib/iso-countries.json is what
// Generate and Import check a country against, lib/proxies/places.js), and the countries
// with a built-in state and city list (pb_hooks/lib/locations.json), which the pickers
// suggest first. Import this only where the whole list is needed (the console's pickers):
// Buy Proxies gets each stocked country's name from the stock route instead.
import { isoCountries, locations } from "@/lib/shared-data";

export interface Country {
  code: string;
  name: string;
}

const NAMES: Readonly<Record<string, string>> = isoCountries;

/** Codes that are not ISO but mean an ISO country ("UK", the shop's code before the ISO list). */
const ALIASES: Readonly<Record<string, string>> = { UK: "GB" };

/** The ISO code a country is written with: trimmed, upper case, an alias replaced ("uk" -> "GB"). */
export function normalizeCountry(code: string): string {
  const upper = code.trim().toUpperCase();
  return ALIASES[upper] ?? upper;
}

/** Every ISO 3166-1 country, by name. */
export const ALL_COUNTRIES: readonly Country[] = Object.entries(NAMES)
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The countries with a built-in state and city list: the pickers' default suggestions. */
export const SUGGESTED_COUNTRY_CODES: readonly string[] = Object.keys(locations);

/** Every country with the suggested ones first (in their list order), then the rest by name. */
export const COUNTRIES_SUGGESTED_FIRST: readonly Country[] = [
  ...SUGGESTED_COUNTRY_CODES.map((code) => ({ code, name: NAMES[code] ?? code })),
  ...ALL_COUNTRIES.filter((c) => !SUGGESTED_COUNTRY_CODES.includes(c.code)),
];

/** Whether `code` is an ISO 3166-1 alpha-2 code (or an alias of one). */
export function isCountryCode(code: string): boolean {
  return normalizeCountry(code) in NAMES;
}

/** "Norway" for "NO" (and "United Kingdom" for the old "UK"); anything else as it is ("Unknown", "XX"). */
export function countryName(code: string): string {
  return NAMES[normalizeCountry(code)] ?? code;
}

/** "Norway (NO)" for a known code; anything else as it is. */
export function countryLabel(code: string): string {
  const name = NAMES[normalizeCountry(code)];
  return name ? `${name} (${code})` : code;
}

/**
 * The countries whose name or code matches `query` (case-insensitive; the code exactly, the
 * name as a substring), suggested ones first. An empty query gives every country.
 */
export function searchCountries(query: string, list: readonly Country[] = COUNTRIES_SUGGESTED_FIRST): Country[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...list];
  return list.filter((c) => c.code.toLowerCase() === q || c.name.toLowerCase().includes(q));
}

/** The states with a built-in list for `code` (empty: the country takes any state as text). */
export function listedStates(code: string): string[] {
  return Object.keys((locations as Record<string, { states: Record<string, string[]> }>)[normalizeCountry(code)]?.states ?? {});
}

/** The cities with a built-in list for `code`/`state` (empty: any city as text). */
export function listedCities(code: string, state: string): string[] {
  return (locations as Record<string, { states: Record<string, string[]> }>)[normalizeCountry(code)]?.states[state] ?? [];
}
