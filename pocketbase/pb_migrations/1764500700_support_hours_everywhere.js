// @ts-check
// Support hours are one setting (issue #15). A shop installed before it gets its settings
// rows support_hours and staff_notification_email (the defaults of
// lib/default-settings.json, as a fresh install writes them), and the starting plan's
// "24/7 priority support" becomes "Priority support" (its hours are the setting's) where
// an admin has not reworded it.

const SETTINGS = ["support_hours", "staff_notification_email"];
const OLD_FEATURE = "24/7 priority support";
const NEW_FEATURE = "Priority support";

/**
 * Replaces one feature text in every plan that has it.
 * @param {CoreApp} app
 * @param {string} from
 * @param {string} to
 */
function rewordFeature(app, from, to) {
  for (const plan of app.findAllRecords("pricing_plans")) {
    if (!plan) continue;
    /** @type {unknown} */
    const features = JSON.parse(plan.getString("features") || "[]");
    if (!Array.isArray(features) || features.indexOf(from) < 0) continue;
    plan.set(
      "features",
      features.map((f) => (f === from ? to : f)),
    );
    app.save(plan);
  }
}

migrate(
  (app) => {
    /** @type {Record<string, string>} */
    const defaults = require(`${__hooks}/lib/default-settings.json`);
    const settings = app.findCollectionByNameOrId("settings");
    for (const key of SETTINGS) {
      if (app.countRecords("settings", $dbx.hashExp({ key })) === 0) {
        app.save(new Record(settings, { key, value: defaults[key] ?? "" }));
      }
    }
    rewordFeature(app, OLD_FEATURE, NEW_FEATURE);
  },
  (app) => {
    rewordFeature(app, NEW_FEATURE, OLD_FEATURE);
  },
);
