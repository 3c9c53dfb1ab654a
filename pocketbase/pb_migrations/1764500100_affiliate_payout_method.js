// @ts-check
// affiliates.payout_method (issue #15): how the affiliate wants to be paid (a PayPal e-mail
// or a bank note, free text, at most 500 characters). Set by its owner on /dashboard/affiliate
// (PUT /api/v1/affiliate/payout-method), read by the owner and by shop admins when paying.

migrate(
  (app) => {
    const affiliates = app.findCollectionByNameOrId("affiliates");
    affiliates.fields.add(new TextField({ name: "payout_method", max: 500 }));
    app.save(affiliates);
  },
  (app) => {
    const affiliates = app.findCollectionByNameOrId("affiliates");
    affiliates.fields.removeByName("payout_method");
    app.save(affiliates);
  },
);
