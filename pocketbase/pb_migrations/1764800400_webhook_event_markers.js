// @ts-check
// Webhook events (issue #18): the once-per-month marker of proxy.quota_reached. The webhook
// events job (pb_hooks/events.pb.js, lib/webhooks/events.js) announces a proxy's monthly
// usage reaching 80% and 100% of its bandwidth quota once each per UTC month:
// quota_notice_month ("2026-11") is the month of the last announcement and
// quota_notice_level (80 or 100) the level announced then. A purchase clears both (a new
// owner hears of the month from where it stands). Hidden: only the server reads and writes
// them (the records API drops them from answers and from non-superuser writes).

migrate(
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.add(new TextField({ name: "quota_notice_month", max: 7, hidden: true }));
    proxies.fields.add(new NumberField({ name: "quota_notice_level", onlyInt: true, min: 0, max: 100, hidden: true }));
    app.save(proxies);
  },
  (app) => {
    const proxies = app.findCollectionByNameOrId("proxies");
    proxies.fields.removeByName("quota_notice_month");
    proxies.fields.removeByName("quota_notice_level");
    app.save(proxies);
  },
);
