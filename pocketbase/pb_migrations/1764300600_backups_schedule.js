// @ts-check
// PocketBase's scheduled backups on by default: daily at 03:00 UTC, the last 7 kept (in
// pb_data/backups, or in S3 when configured). Only when no schedule is set; then the
// SHOP_BACKUP_* environment, which the start hook (backups.pb.js) applies on later starts
// (on the very first start that hook runs before this migration).

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/backups.js")} */
    const backups = require(`${__hooks}/lib/settings/backups.js`);
    backups.setDefaultSchedule(app);
    backups.applyBackupEnv(app);
  },
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/settings/backups.js")} */
    const backups = require(`${__hooks}/lib/settings/backups.js`);
    backups.removeDefaultSchedule(app);
  },
);
