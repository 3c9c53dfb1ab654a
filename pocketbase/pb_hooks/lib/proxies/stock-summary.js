// @ts-check
// How many countries the shop has proxies in stock for: the public pages' "N countries"
// stat follows the stock (issue #16), not a fixed claim. GET /api/shop/stock-summary
// answers it; a job every minute announces a changed count on the public_content topic,
// so the web server re-renders the pages that show it.

/** Where the last announced count is kept in the app store (shared by every JS VM). */
const LAST_COUNT_KEY = "shop.stock_countries";

/**
 * Distinct countries with at least one AVAILABLE proxy.
 * @param {CoreApp} app
 * @returns {number}
 */
function stockCountries(app) {
  const row = new DynamicModel({ countries: 0 });
  app.db().newQuery("SELECT COUNT(DISTINCT country) AS countries FROM proxies WHERE status = 'AVAILABLE' AND country != ''").one(row);
  return row.countries;
}

/**
 * GET /api/shop/stock-summary -> {countries}: public (the marketing pages are rendered from it).
 * @param {core.RequestEvent} e
 */
function stockSummaryRoute(e) {
  return e.json(200, { countries: stockCountries(e.app) });
}

/** The minute job: announces the count when it changed since the last announcement. */
function announceIfChanged() {
  const count = stockCountries($app);
  if ($app.store().get(LAST_COUNT_KEY) === count) return;
  $app.store().set(LAST_COUNT_KEY, count);
  require(`${__hooks}/lib/core/realtime.js`).broadcast($app, require(`${__hooks}/lib/core/realtime.js`).PUBLIC_CONTENT_TOPIC, {
    collection: "proxies",
    action: "stock",
  });
}

module.exports = { stockCountries, stockSummaryRoute, announceIfChanged };
