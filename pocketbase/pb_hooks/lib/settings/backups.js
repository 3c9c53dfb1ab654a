// @ts-check
// PocketBase's own backups (settings.backups: a zip of the data dir, on a cron, kept N,
// locally in pb_data/backups or in S3): the shop's defaults, the SHOP_BACKUP_* overrides
// applied on every start, and the files a backup must never hold.

/** Daily at 03:00 UTC (PocketBase's cron runs in UTC). */
const DEFAULT_CRON = "0 3 * * *";
/** A week of daily backups. */
const DEFAULT_KEEP = 7;
/** PocketBase's own default cronMaxKeep, for the down migration. */
const POCKETBASE_DEFAULT_KEEP = 3;

/**
 * Data dir entries that never go into a backup, and that a restore leaves in place:
 * `.superuser-password` is the superuser password `npm start` generates (scripts/start.ts)
 * in plain text; a backup (maybe in S3) must not carry it, and a restore through the
 * dashboard must not take it away from the running install.
 */
const NEVER_BACKED_UP = [".superuser-password"];

/**
 * For the migration: turns on the daily schedule, kept 7, when no schedule is set (an
 * empty cron is PocketBase's default: no automatic backups). A schedule an operator set
 * (in the dashboard or through SHOP_BACKUP_CRON) is left alone, its keep count too.
 * @param {CoreApp} app
 */
function setDefaultSchedule(app) {
  const settings = app.settings();
  if (settings.backups.cron) return;
  settings.backups.cron = DEFAULT_CRON;
  settings.backups.cronMaxKeep = DEFAULT_KEEP;
  app.save(settings);
}

/**
 * For the down migration: switches the schedule off again if it still is our default.
 * @param {CoreApp} app
 */
function removeDefaultSchedule(app) {
  const settings = app.settings();
  if (settings.backups.cron !== DEFAULT_CRON || settings.backups.cronMaxKeep !== DEFAULT_KEEP) return;
  settings.backups.cron = "";
  settings.backups.cronMaxKeep = POCKETBASE_DEFAULT_KEEP;
  app.save(settings);
}

/**
 * The SHOP_BACKUP_* environment, applied on every start (and by the migration on the first
 * one). Each variable that is set pins its setting; unset ones leave the stored value
 * (the dashboard's Settings > Backups) alone. A wrong value stops the start with a message
 * naming the variable.
 * - SHOP_BACKUP_CRON: a cron expression in UTC ("0 3 * * *"), or "off" for no automatic backups.
 * - SHOP_BACKUP_KEEP: how many automatic backups to keep (1-1000).
 * - SHOP_BACKUP_S3_BUCKET (+ _REGION, _ENDPOINT, _ACCESS_KEY, _SECRET, _FORCE_PATH_STYLE):
 *   store the backups in that S3 bucket instead of pb_data/backups; "off" stores them
 *   locally again.
 * @param {CoreApp} app
 */
function applyBackupEnv(app) {
  const env = (/** @type {string} */ name) => ($os.getenv(name) || "").trim();
  const cron = env("SHOP_BACKUP_CRON");
  const keep = env("SHOP_BACKUP_KEEP");
  const bucket = env("SHOP_BACKUP_S3_BUCKET");
  if (!cron && !keep && !bucket) return;

  const settings = app.settings();
  if (cron) settings.backups.cron = cron.toLowerCase() === "off" ? "" : cron;
  if (keep) {
    const n = /^\d+$/.test(keep) ? parseInt(keep, 10) : 0;
    if (n < 1 || n > 1000) throw new Error(`SHOP_BACKUP_KEEP must be a whole number from 1 to 1000, got "${keep}".`);
    settings.backups.cronMaxKeep = n;
  }
  if (bucket.toLowerCase() === "off") {
    settings.backups.s3.enabled = false;
  } else if (bucket) {
    const s3 = settings.backups.s3;
    s3.enabled = true;
    s3.bucket = bucket;
    s3.region = env("SHOP_BACKUP_S3_REGION");
    s3.endpoint = env("SHOP_BACKUP_S3_ENDPOINT");
    s3.accessKey = env("SHOP_BACKUP_S3_ACCESS_KEY");
    s3.secret = env("SHOP_BACKUP_S3_SECRET");
    s3.forcePathStyle = env("SHOP_BACKUP_S3_FORCE_PATH_STYLE") === "true";
  }

  try {
    app.save(settings);
  } catch (err) {
    // PocketBase's validation names the field (cron, cronMaxKeep, s3.endpoint ...).
    throw new Error(`The SHOP_BACKUP_* settings were refused: ${String(err)}`);
  }
}

/**
 * For onBackupCreate / onBackupRestore: adds NEVER_BACKED_UP to the entries the backup
 * leaves out (create) or leaves in place (restore).
 * @param {core.BackupEvent} e
 */
function excludeSecrets(e) {
  const exclude = e.exclude.slice();
  for (const name of NEVER_BACKED_UP) if (exclude.indexOf(name) < 0) exclude.push(name);
  e.exclude = exclude;
}

/**
 * For onBackupRestore: a restore through the dashboard swaps data.db under a running
 * Litestream, which keeps replicating the old file. The shop passes SHOP_LITESTREAM_REPLICA
 * to PocketBase while Litestream runs (server/shop.ts); then the restore is refused with
 * the way to do it (README "Backups and restore": stop the shop, unzip, start).
 */
function refuseRestoreWhileReplicating() {
  const replica = ($os.getenv("SHOP_LITESTREAM_REPLICA") || "").trim();
  if (!replica) return;
  throw new BadRequestError(
    `Restoring a backup in place is off while Litestream replicates this data dir to ${replica}: stop the shop, unzip the backup into a fresh data dir and start it there (README, "Backups and restore").`,
  );
}

module.exports = {
  DEFAULT_CRON,
  DEFAULT_KEEP,
  NEVER_BACKED_UP,
  setDefaultSchedule,
  removeDefaultSchedule,
  applyBackupEnv,
  excludeSecrets,
  refuseRestoreWhileReplicating,
};
