// @ts-check
// The staff_notification_email setting (where new-ticket and contact-form notices go,
// lib/core/mail-templates.js) is the staff's own address, not the public contact one: the
// settings rows stay readable by anyone except that key. The console reads and writes it
// through /api/admin/settings (SQL, admins only); the hooks read it by SQL.

const PRIVATE_RULE = 'key != "staff_notification_email"';

migrate(
  (app) => {
    const settings = app.findCollectionByNameOrId("settings");
    settings.listRule = PRIVATE_RULE;
    settings.viewRule = PRIVATE_RULE;
    app.save(settings);
  },
  (app) => {
    const settings = app.findCollectionByNameOrId("settings");
    settings.listRule = "";
    settings.viewRule = "";
    app.save(settings);
  },
);
