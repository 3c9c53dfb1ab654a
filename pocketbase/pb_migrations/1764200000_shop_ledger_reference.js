// @ts-check
// Customer purchases (issue #6), ledger side: every money move the server makes names what
// it is for in `reference` ("order:<id>", "payment:<id>", "welcome" ...). One reference
// per user at most, so a retried or replayed action can never move the money twice.

migrate(
  (app) => {
    const transactions = app.findCollectionByNameOrId("transactions");
    transactions.fields.add(new TextField({ name: "reference", max: 100 }));
    transactions.addIndex("idx_transactions_user_reference", true, "user_id, reference", "reference != ''");
    app.save(transactions);
  },
  (app) => {
    const transactions = app.findCollectionByNameOrId("transactions");
    transactions.removeIndex("idx_transactions_user_reference");
    transactions.fields.removeByName("reference");
    app.save(transactions);
  },
);
