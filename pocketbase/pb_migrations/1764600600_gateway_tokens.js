// @ts-check
// Gateway tokens (issue #16): a gateway on another machine (`pocketbase gateway --pb-url ...
// --token-file ...`) follows the shop over /api/gateway/* with one of these. A token is a
// role of its own: it reads the proxies' credentials and writes usage, nothing else; it is
// shown once by `pocketbase gateway-token <name>` and stored only as a SHA-256 hash. Admins
// see which exist and when each was last used; only the server writes them.

migrate(
  (app) => {
    app.save(
      new Collection({
        type: "base",
        name: "gateway_tokens",
        listRule: "@request.auth.is_admin = true",
        viewRule: "@request.auth.is_admin = true",
        fields: /** @type {any} */ ([
          { name: "name", type: "text", required: true, max: 100 },
          { name: "token_hash", type: "text", required: true, max: 64, hidden: true },
          { name: "last_seen_at", type: "date" },
          { name: "last_address", type: "text", max: 45 },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE UNIQUE INDEX idx_gateway_tokens_hash ON gateway_tokens (token_hash)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("gateway_tokens"));
  },
);
