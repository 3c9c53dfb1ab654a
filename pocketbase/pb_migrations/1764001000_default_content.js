// @ts-check
// The content every installation starts with (production and tests alike): the site
// settings (pb_hooks/lib/default-settings.json, also the web app's defaults) and a
// starting set of plans (pb_hooks/lib/default-plans.json: feature texts may name a fact,
// "{session_max_hours}", filled in where plans are shown: src/lib/plan-features.ts).
// Admins change them in the console afterwards.

/** @typedef {{ name: string, type: string, price_cents: number, popular: boolean, features: string[] }} Plan */

migrate(
  (app) => {
    /** @type {Record<string, string>} */
    const SETTINGS = require(`${__hooks}/lib/default-settings.json`);
    const settings = app.findCollectionByNameOrId("settings");
    for (const [key, value] of Object.entries(SETTINGS)) {
      app.save(new Record(settings, { key, value }));
    }
    /** @type {Plan[]} */
    const PLANS = require(`${__hooks}/lib/default-plans.json`);
    const plans = app.findCollectionByNameOrId("pricing_plans");
    for (const plan of PLANS) {
      app.save(new Record(plans, { ...plan, active: true }));
    }
  },
  (app) => {
    /** @type {Record<string, string>} */
    const SETTINGS = require(`${__hooks}/lib/default-settings.json`);
    for (const key of Object.keys(SETTINGS)) {
      const rows = app.findRecordsByFilter("settings", "key = {:key}", "", 1, 0, { key });
      for (const row of rows) if (row) app.delete(row);
    }
    /** @type {Plan[]} */
    const PLANS = require(`${__hooks}/lib/default-plans.json`);
    for (const plan of PLANS) {
      const rows = app.findRecordsByFilter("pricing_plans", "name = {:name}", "", 0, 0, { name: plan.name });
      for (const row of rows) if (row) app.delete(row);
    }
  },
);
