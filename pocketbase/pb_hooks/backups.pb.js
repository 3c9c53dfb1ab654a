/// <reference path="../types/pocketbase.d.ts" />
// @ts-check
// PocketBase's own backups: the SHOP_BACKUP_* environment on every start, and the data dir
// files a backup never holds (helpers: lib/settings/backups.js; defaults: the 1764300600 migration).

onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/settings/backups.js`).applyBackupEnv(e.app);
});

onBackupCreate((e) => {
  require(`${__hooks}/lib/settings/backups.js`).excludeSecrets(e);
  e.next();
});

onBackupRestore((e) => {
  const backups = require(`${__hooks}/lib/settings/backups.js`);
  backups.refuseRestoreWhileReplicating();
  backups.excludeSecrets(e);
  e.next();
});
