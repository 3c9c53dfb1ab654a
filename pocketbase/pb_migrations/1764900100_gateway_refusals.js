// @ts-check
// One definition of a connection (issue #28, 15): an authorised attempt through the gateway
// to reach a target, which reached it (connections_ok) or failed (connections_failed).
// Clients the gateway answered 407 (credentials, port, allowlist) or 429 (quota,
// concurrency, too many failed sign-ins) never became connections: gateway_stats counts
// them apart, per gateway and hour, in connections_refused (written by the gateway only).

migrate(
  (app) => {
    const stats = app.findCollectionByNameOrId("gateway_stats");
    stats.fields.add(new NumberField({ name: "connections_refused", onlyInt: true, min: 0 }));
    app.save(stats);
  },
  (app) => {
    const stats = app.findCollectionByNameOrId("gateway_stats");
    stats.fields.removeByName("connections_refused");
    app.save(stats);
  },
);
