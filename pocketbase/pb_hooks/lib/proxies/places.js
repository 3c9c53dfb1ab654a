// @ts-check
// The reference list of places the console's generate and import check a proxy's country,
// state and city against, and the names customers and admins see for a country code:
// every ISO 3166-1 country (lib/iso-countries.json, alpha-2 code -> English short name),
// with the states and cities of lib/locations.json for the countries that have a list
// (the pickers' default suggestions, shown first).

/** The most characters a state or a city may have. */
const MAX_PLACE_PART = 100;

/**
 * Codes that are not ISO 3166-1 but mean a country that is: "UK" (exceptionally reserved
 * for the United Kingdom, and the shop's code for it before the ISO list) is GB.
 * @type {Record<string, string>}
 */
const ALIASES = { UK: "GB" };

/**
 * ISO 3166-1 alpha-2 code -> English short name (249 countries).
 * @returns {Record<string, string>}
 */
function isoCountries() {
  return require(`${__hooks}/lib/iso-countries.json`);
}

/**
 * The reference list of places: country code -> {name, states: state -> cities}. The
 * countries of lib/locations.json come first (with their states), then every other ISO
 * country by name, without states.
 * @returns {Record<string, { name: string, states: Record<string, string[]> }>}
 */
function locations() {
  /** @type {Record<string, { name: string, states: Record<string, string[]> }>} */
  const listed = require(`${__hooks}/lib/locations.json`);
  const names = isoCountries();
  /** @type {Record<string, { name: string, states: Record<string, string[]> }>} */
  const all = {};
  for (const code of Object.keys(listed))
    all[code] = { name: names[code] ?? listed[code]?.name ?? code, states: listed[code]?.states ?? {} };
  const rest = Object.keys(names)
    .filter((code) => !all[code])
    .sort((a, b) => (names[a] ?? a).localeCompare(names[b] ?? b));
  for (const code of rest) all[code] = { name: names[code] ?? code, states: {} };
  return all;
}

/**
 * The ISO code a country is written with: trimmed, upper case, an alias replaced ("uk" -> "GB").
 * @param {string} country
 */
function normalizeCountry(country) {
  const code = String(country ?? "")
    .trim()
    .toUpperCase();
  return ALIASES[code] ?? code;
}

/**
 * "Norway" for "NO"; an unknown code as it is ("XX", "Unknown").
 * @param {string} code
 */
function countryName(code) {
  return isoCountries()[normalizeCountry(code)] ?? code;
}

/**
 * Checks a place; its problems are added to `problems`. The country must be an ISO 3166-1
 * code (`place.country` is normalised in place: "uk" -> "GB"); state and city are trimmed
 * free text of at most 100 characters, checked against the country's list where it has one.
 * @param {{ country: string, state: string, city: string }} place
 * @param {[string, string, string][]} problems  field, code, message
 * @param {boolean} countryRequired
 */
function checkPlace(place, problems, countryRequired) {
  place.country = normalizeCountry(place.country);
  place.state = String(place.state ?? "").trim();
  place.city = String(place.city ?? "").trim();
  if (!place.country) {
    if (countryRequired) problems.push(["country", "validation_required", "Country is required"]);
    if (place.state) problems.push(["state", "validation_invalid_state", "Choose a country before a state"]);
    return;
  }
  const name = isoCountries()[place.country];
  if (!name) {
    problems.push([
      "country",
      "validation_invalid_country",
      `${place.country.slice(0, 20)} is not a country code: use an ISO 3166-1 two-letter code such as US, GB or DE`,
    ]);
    return;
  }
  for (const field of /** @type {const} */ (["state", "city"])) {
    if (place[field].length > MAX_PLACE_PART) {
      problems.push([
        field,
        "validation_max_length",
        `${field === "state" ? "State" : "City"} must be at most ${MAX_PLACE_PART} characters`,
      ]);
      return;
    }
  }
  if (place.city && !place.state) {
    problems.push(["state", "validation_required", "Choose a state before a city"]);
    return;
  }
  /** @type {Record<string, string[]>} */
  const states = require(`${__hooks}/lib/locations.json`)[place.country]?.states ?? {};
  // A country without a list takes any state and city.
  if (Object.keys(states).length === 0) return;
  if (place.state && !states[place.state]) {
    problems.push(["state", "validation_invalid_state", `${place.state} is not a state of ${name} in the list`]);
    return;
  }
  if (place.city && (states[place.state] ?? []).indexOf(place.city) < 0) {
    problems.push(["city", "validation_invalid_city", `${place.city} is not a city of ${place.state} in the list`]);
  }
}

module.exports = { locations, isoCountries, normalizeCountry, countryName, checkPlace, MAX_PLACE_PART };
