// Columns the records API refuses to write (a proxy's owner, status, expiry and
// auto-renewal; an order's creation time), written straight in a test PocketBase's
// data.db with python3's sqlite3: the records API refuses every write to them (issue #13,
// finding 6), and tests need owned, due or expired proxies without buying or waiting.
import { execFileSync } from "node:child_process";
import { createCipheriv, randomBytes } from "node:crypto";
import path from "node:path";
import { TEST_CREDENTIALS_KEY } from "./pocketbase.ts";

/**
 * Sets `columns` on the rows `ids` of `table` in `<dataDir>/data.db` (a TestPocketBase, or the
 * e2e run's data dir). Booleans are written as 1/0, dates as PocketBase stores them
 * ("2026-01-02 03:04:05.000Z").
 */
export function setColumns(
  target: { dataDir: string },
  table: string,
  ids: string[],
  columns: Record<string, string | number | boolean>,
): void {
  const values = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, typeof v === "boolean" ? Number(v) : v]));
  execFileSync("python3", [
    "-c",
    `import sqlite3,sys,json
c=sqlite3.connect(sys.argv[1], timeout=10)
cols=json.loads(sys.argv[2])
for i in json.loads(sys.argv[3]):
    c.execute('UPDATE ' + sys.argv[4] + ' SET ' + ', '.join(k + '=?' for k in cols) + ' WHERE id=?', [cols[k] for k in cols] + [i])
c.commit()`,
    path.join(target.dataDir, "data.db"),
    JSON.stringify(values),
    JSON.stringify(ids),
    table,
  ]);
}

/** `setColumns` on proxies. */
export const setProxyColumns = (target: { dataDir: string }, ids: string[], columns: Record<string, string | number | boolean>) =>
  setColumns(target, "proxies", ids, columns);

/**
 * `plain` sealed as pb_hooks/lib/core/sealing.js sealPassword does under the test
 * PocketBases' key (TEST_CREDENTIALS_KEY), for a sealed column written with setColumns.
 */
export function sealed(plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(TEST_CREDENTIALS_KEY, "utf8"), nonce);
  return `v1:${Buffer.concat([nonce, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64")}`;
}
