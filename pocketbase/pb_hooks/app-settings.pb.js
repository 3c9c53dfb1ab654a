// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Keeps meta.appURL (links in e-mails) equal to SHOP_APP_URL, so it follows the
// deployment without a migration.

onBootstrap((e) => {
  e.next();
  const appUrl = ($os.getenv("SHOP_APP_URL") || "").trim().replace(/\/+$/, "");
  if (!appUrl) return;
  const settings = e.app.settings();
  if (settings.meta.appURL !== appUrl) {
    settings.meta.appURL = appUrl;
    e.app.save(settings);
  }
});
