// Where proxies can be bought: the choices of the country, state and city selects, built
// only from live stock (GET /api/v1/proxies/stock), each with how many are available.
// Countries are shown by the name the stock route gives them ("Norway"; an unknown code as it is).
import type { ResponseOf } from "@/lib/api-contract/define";
import type { getProxyStock } from "@/lib/api-contract/proxies";

/** GET /api/v1/proxies/stock's answer (the contract's ProxyStock). */
export type Stock = ResponseOf<typeof getProxyStock>;

/**
 * A place of the stock. The answer always names the country ("Norway", or the stored code
 * when it is not an ISO country); the choices below also take a place without its name.
 */
export type StockLocation = Omit<Stock["locations"][number], "country_name"> & { country_name?: string };

export interface Place {
  country: string;
  state: string;
  city: string;
}

export interface LocationOption {
  value: string;
  available: number;
  /** What the option shows for the value (a country's name); the value itself when missing. */
  name?: string;
}

export const EMPTY_PLACE: Place = { country: "", state: "", city: "" };

function tally(values: Iterable<[string, number]>): LocationOption[] {
  const counts = new Map<string, number>();
  for (const [value, n] of values) {
    if (!value || n <= 0) continue;
    counts.set(value, (counts.get(value) ?? 0) + n);
  }
  return [...counts.entries()].map(([value, available]) => ({ value, available })).sort((a, b) => a.value.localeCompare(b.value));
}

/** The names of the stocked countries by code. */
export function countryNames(locations: readonly StockLocation[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const l of locations) if (l.country_name) names.set(l.country, l.country_name);
  return names;
}

/** Countries with stock, each with its total count and name, by name. */
export function countryOptions(locations: readonly StockLocation[]): LocationOption[] {
  const names = countryNames(locations);
  return tally(locations.map((l) => [l.country, l.available]))
    .map((o) => ({ ...o, name: names.get(o.value) ?? o.value }))
    .sort((a, b) => (a.name ?? a.value).localeCompare(b.name ?? b.value));
}

/** States of `country` with stock (places without a state count for the country only). */
export function stateOptions(locations: readonly StockLocation[], country: string): LocationOption[] {
  if (!country) return [];
  return tally(locations.filter((l) => l.country === country).map((l) => [l.state, l.available]));
}

/** Cities of `country`/`state` with stock. */
export function cityOptions(locations: readonly StockLocation[], country: string, state: string): LocationOption[] {
  if (!country || !state) return [];
  return tally(locations.filter((l) => l.country === country && l.state === state).map((l) => [l.city, l.available]));
}

/** How many proxies the place offers (what the server would find for it); 0 without a country. */
export function availableAt(locations: readonly StockLocation[], place: Place): number {
  if (!place.country) return 0;
  return locations
    .filter(
      (l) =>
        l.country === place.country && (!place.state || l.state === place.state) && (!place.city || (place.state && l.city === place.city)),
    )
    .reduce((sum, l) => sum + Math.max(0, l.available), 0);
}

/** Keeps as much of `place` as the stock still offers (after a reload or a type change). */
export function reconcilePlace(locations: readonly StockLocation[], place: Place): Place {
  if (!countryOptions(locations).some((o) => o.value === place.country)) return EMPTY_PLACE;
  if (!place.state) return { country: place.country, state: "", city: "" };
  if (!stateOptions(locations, place.country).some((o) => o.value === place.state)) return { country: place.country, state: "", city: "" };
  if (!place.city || !cityOptions(locations, place.country, place.state).some((o) => o.value === place.city)) {
    return { ...place, city: "" };
  }
  return place;
}

/**
 * The options with the chosen value kept at 0 available when the stock no longer offers it
 * (someone else bought its last proxy): the choice stays the customer's to change.
 */
export function withChosen(options: LocationOption[], chosen: string, name?: string): LocationOption[] {
  if (!chosen || options.some((o) => o.value === chosen)) return options;
  return [...options, { value: chosen, available: 0, ...(name ? { name } : {}) }].sort((a, b) =>
    (a.name ?? a.value).localeCompare(b.name ?? b.value),
  );
}

/** "United States (27 available)". */
export function optionLabel(option: LocationOption): string {
  return `${option.name ?? option.value} (${option.available} available)`;
}

/** "United States / California / Los Angeles": the country by its name in `names` when it has one. */
export function placeLabel(place: Place, names?: ReadonlyMap<string, string>): string {
  return [names?.get(place.country) ?? place.country, place.state, place.city].filter(Boolean).join(" / ");
}
