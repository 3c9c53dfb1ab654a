// @ts-check
// Locations are ISO 3166-1 countries (issue #16, lib/iso-countries.json): the United Kingdom
// is GB, not the "UK" the built-in list used before. Proxies and orders stored with "UK"
// become "GB", so stock of both codes is one country for sale (Generate and Import now
// write GB for "UK"). Down writes "UK" back for every GB row (which rows were UK before is
// not kept).

/**
 * Renames a country code in the tables that store one.
 * @param {CoreApp} app
 * @param {string} from
 * @param {string} to
 */
function renameCountry(app, from, to) {
  for (const table of ["proxies", "proxy_orders"]) {
    app.db().newQuery(`UPDATE ${table} SET country = {:to} WHERE country = {:from}`).bind({ from, to }).execute();
  }
}

migrate(
  (app) => renameCountry(app, "UK", "GB"),
  (app) => renameCountry(app, "GB", "UK"),
);
