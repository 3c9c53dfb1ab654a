// @ts-check
// Dead upstreams off sale, replacements and assignments (issue #28, items 1 and 2):
// - proxies.withdrawn_at (hidden date): when the upstream health job took an AVAILABLE proxy
//   whose upstream kept failing off sale (status MAINTENANCE); it comes back to AVAILABLE,
//   and this is cleared, once the gateway reaches the upstream again. "" = not withdrawn
//   (an admin's own MAINTENANCE stays as the admin left it).
// - proxies.exit_down_at (date, readable by the owner): the exit of this sold proxy is down
//   and no replacement was in stock: its card says so and offers a pro-rata refund. Cleared
//   when the job replaces the exit or the exit answers again.
// - proxies.replacements_used / replacements_for (hidden): the free replacements used in the
//   term that ends at replacements_for (the proxy's expires_at then): a renewal or a new
//   purchase moves expires_at, so the count starts again.
// - pricing_plans.replacements_per_term: free replacements per term of a proxy sold under it.
// - setting upstream_offline_after_seconds (default 120): how long an upstream must keep
//   failing before it leaves stock (or a sold proxy's exit is replaced); admin-only, like the
//   gateway's bind addresses and allowed ranges.

const SETTING = "upstream_offline_after_seconds";
const BEFORE_RULE = 'key != "staff_notification_email" && key != "gateway_bind_addresses" && key != "gateway_allowed_ranges"';
const PRIVATE_RULE = `${BEFORE_RULE} && key != "${SETTING}"`;

/**
 * The list and view rule of the settings rows.
 * @param {CoreApp} app
 * @param {string} rule
 */
function settingsRule(app, rule) {
  const settings = app.findCollectionByNameOrId("settings");
  settings.listRule = rule;
  settings.viewRule = rule;
  app.save(settings);
}

migrate(
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new DateField({ name: "withdrawn_at", hidden: true }));
    proxies.fields.add(new DateField({ name: "exit_down_at" }));
    proxies.fields.add(new NumberField({ name: "replacements_used", onlyInt: true, min: 0, hidden: true }));
    proxies.fields.add(new DateField({ name: "replacements_for", hidden: true }));
    proxies.addIndex("idx_proxies_upstream_failed", false, "upstream_failed_at", "upstream_failed_at != ''");
    app.save(proxies);

    const plans = app.findCollectionByNameOrId("pricing_plans");
    plans.fields.add(new NumberField({ name: "replacements_per_term", onlyInt: true, min: 0, max: 100 }));
    app.save(plans);
    app.db().newQuery("UPDATE pricing_plans SET replacements_per_term = 1").execute();

    settingsRule(app, PRIVATE_RULE);
    if (app.countRecords("settings", $dbx.hashExp({ key: SETTING })) === 0) {
      /** @type {Record<string, string>} */
      const defaults = require(`${__hooks}/lib/default-settings.json`);
      app.save(new Record(app.findCollectionByNameOrId("settings"), { key: SETTING, value: defaults[SETTING] }));
    }
  },
  (app) => {
    settingsRule(app, BEFORE_RULE);
    for (const row of app.findRecordsByFilter("settings", "key = {:key}", "", 0, 0, { key: SETTING })) {
      if (row) app.delete(row);
    }
    const plans = app.findCollectionByNameOrId("pricing_plans");
    plans.fields.removeByName("replacements_per_term");
    app.save(plans);
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.removeIndex("idx_proxies_upstream_failed");
    for (const name of ["withdrawn_at", "exit_down_at", "replacements_used", "replacements_for"]) proxies.fields.removeByName(name);
    app.save(proxies);
  },
);
