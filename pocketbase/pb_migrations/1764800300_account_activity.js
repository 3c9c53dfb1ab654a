// @ts-check
// Account activity (issue #18): the customer's own log, shown in Settings → Activity and
// answered by GET /api/v1/activity: sign-ins (address, agent), password and e-mail changes,
// IP allowlist changes, API keys made, revoked or spent with, webhook changes, purchases,
// renewals and credential rotations. `summary` is the sentence shown; `api_key_id` and
// `api_key_name` name the API key a change was made with (empty from a session). Only the
// server writes and reads it (lib/activity/activity.js record): no API rules.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "account_activity",
        fields: /** @type {any} */ ([
          {
            name: "user",
            type: "relation",
            required: true,
            collectionId: app.findCollectionByNameOrId("users").id,
            cascadeDelete: true,
            maxSelect: 1,
          },
          { name: "kind", type: "text", required: true, max: 50 },
          { name: "summary", type: "text", max: 300 },
          { name: "ip", type: "text", max: 45 },
          { name: "user_agent", type: "text", max: 300 },
          { name: "api_key_id", type: "text", max: 15 },
          { name: "api_key_name", type: "text", max: 100 },
          { name: "data", type: "json", maxSize: 2000 },
          { name: "created", type: "autodate", onCreate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE INDEX idx_account_activity_user ON account_activity (user, created)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("account_activity"));
  },
);
