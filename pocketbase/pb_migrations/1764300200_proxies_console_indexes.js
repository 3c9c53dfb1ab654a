// @ts-check
// The console's inventory list (GET /api/admin/proxies) pages newest first under a status,
// type or country filter: with (filter, created) SQLite walks the filter's rows in order and
// stops after one page instead of sorting every match. The purchase path keeps its own
// index (status, type, country, state, city); only the status one changes on a purchase.

migrate(
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.addIndex("idx_proxies_status_created", false, "status, created", "");
    proxies.addIndex("idx_proxies_type_created", false, "type, created", "");
    proxies.addIndex("idx_proxies_country_created", false, "country, created", "");
    app.save(proxies);
  },
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.removeIndex("idx_proxies_status_created");
    proxies.removeIndex("idx_proxies_type_created");
    proxies.removeIndex("idx_proxies_country_created");
    app.save(proxies);
  },
);
