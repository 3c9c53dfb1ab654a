// @ts-check
// The reference list of places (lib/locations.json) the console's generate and import
// check a proxy's country, state and city against.

/**
 * The reference list of places: country code -> {name, states: state -> cities}.
 * @returns {Record<string, { name: string, states: Record<string, string[]> }>}
 */
function locations() {
  return require(`${__hooks}/lib/locations.json`);
}

/**
 * Checks a place against the reference list; its problems are added to `problems`.
 * @param {{ country: string, state: string, city: string }} place
 * @param {[string, string, string][]} problems  field, code, message
 * @param {boolean} countryRequired
 */
function checkPlace(place, problems, countryRequired) {
  const places = locations();
  if (!place.country) {
    if (countryRequired) problems.push(["country", "validation_required", "Country is required"]);
    if (place.state) problems.push(["state", "validation_invalid_state", "Choose a country before a state"]);
    return;
  }
  const country = places[place.country];
  if (!country) {
    problems.push(["country", "validation_invalid_country", `Country must be one of ${Object.keys(places).join(", ")}`]);
    return;
  }
  if (place.state && !country.states[place.state]) {
    problems.push(["state", "validation_invalid_state", `${place.state} is not a state of ${country.name} in the list`]);
    return;
  }
  if (place.city && !place.state) problems.push(["state", "validation_required", "Choose a state before a city"]);
  else if (place.city && (country.states[place.state] ?? []).indexOf(place.city) < 0) {
    problems.push(["city", "validation_invalid_city", `${place.city} is not a city of ${place.state} in the list`]);
  }
}

module.exports = { locations, checkPlace };
