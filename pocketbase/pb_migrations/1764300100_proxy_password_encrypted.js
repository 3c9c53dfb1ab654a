// @ts-check
// Proxy passwords encrypted at rest (the spec's `password_encrypted`): the `password`
// column becomes a hidden `password_encrypted` holding lib/proxies/credentials.js sealPassword()
// values, and every stored password is encrypted with SHOP_CREDENTIALS_KEY. Hidden: the
// records API never answers or filters on it; readers get the plaintext `password` that
// proxies.pb.js adds on enrichment. 2000 characters hold the ciphertext of a
// 255-character password even in 4-byte UTF-8 ("v1:" + base64 of nonce, bytes and tag).

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/core/sealing.js")} */
    const sealing = require(`${__hooks}/lib/core/sealing.js`);
    sealing.credentialsKey(); // refuse to run without a valid key

    const proxies = app.findCollectionByNameOrId("proxies");
    const field = /** @type {core.TextField} */ (proxies.fields.getByName("password"));
    field.name = "password_encrypted";
    field.hidden = true;
    field.max = 2000;
    app.save(proxies);

    const rows = /** @type {{ id: string, password_encrypted: string }[]} */ (
      /** @type {unknown} */ (arrayOf(new DynamicModel({ id: "", password_encrypted: "" })))
    );
    app.db().newQuery("SELECT id, password_encrypted FROM proxies").all(rows);
    for (const row of rows) {
      app
        .db()
        .newQuery("UPDATE proxies SET password_encrypted = {:sealed} WHERE id = {:id}")
        .bind({ id: row.id, sealed: sealing.sealPassword(row.password_encrypted) })
        .execute();
    }
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/core/sealing.js")} */
    const sealing = require(`${__hooks}/lib/core/sealing.js`);
    const rows = /** @type {{ id: string, password_encrypted: string }[]} */ (
      /** @type {unknown} */ (arrayOf(new DynamicModel({ id: "", password_encrypted: "" })))
    );
    app.db().newQuery("SELECT id, password_encrypted FROM proxies").all(rows);
    for (const row of rows) {
      const plain = sealing.openPassword(row.password_encrypted);
      app
        .db()
        .newQuery("UPDATE proxies SET password_encrypted = {:plain} WHERE id = {:id}")
        .bind({ id: row.id, plain: plain.slice(0, 255) })
        .execute();
    }
    const proxies = app.findCollectionByNameOrId("proxies");
    const field = /** @type {core.TextField} */ (proxies.fields.getByName("password_encrypted"));
    field.name = "password";
    field.hidden = false;
    field.max = 255;
    app.save(proxies);
  },
);
