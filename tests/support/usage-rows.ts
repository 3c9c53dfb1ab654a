// Hourly proxy_usage rows as the gateway writes them (issue #16), inserted straight into a
// test PocketBase's data.db (or the e2e run's) with python3's sqlite3: only the server writes
// usage, and tests need months of traffic without moving gigabytes. A row for the same proxy,
// owner and hour replaces the one there (rows are one per proxy, owner and hour).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

export interface UsageRow {
  proxy_id: string;
  /** The owner when the traffic flowed ("" for none). */
  user_id: string;
  /** Any moment of the hour (it is truncated to the UTC hour start). */
  hour: Date | number;
  bytes_up?: number;
  bytes_down?: number;
  connections?: number;
  failed_connections?: number;
}

/** A UTC hour start as PocketBase stores dates ("2026-11-27 06:00:00.000Z"). */
export function hourText(at: Date | number): string {
  const ms = Math.floor(new Date(at).getTime() / 3_600_000) * 3_600_000;
  return new Date(ms).toISOString().replace("T", " ");
}

const newId = () => randomBytes(8).toString("hex").slice(0, 15);

/** Inserts (or replaces, by proxy, owner and hour) `rows` in `<dataDir>/data.db`. */
export function insertUsageRows(target: { dataDir: string }, rows: UsageRow[]): void {
  const now = new Date().toISOString().replace("T", " ");
  const values = rows.map((r) => [
    newId(),
    r.proxy_id,
    r.user_id,
    hourText(r.hour),
    r.bytes_up ?? 0,
    r.bytes_down ?? 0,
    r.connections ?? 0,
    r.failed_connections ?? 0,
    now,
    now,
  ]);
  execFileSync("python3", [
    "-c",
    `import sqlite3,sys,json
c=sqlite3.connect(sys.argv[1], timeout=10)
for v in json.loads(sys.argv[2]):
    c.execute('DELETE FROM proxy_usage WHERE proxy_id=? AND user_id=? AND hour=?', [v[1], v[2], v[3]])
    c.execute('INSERT INTO proxy_usage (id, proxy_id, user_id, hour, bytes_up, bytes_down, connections, failed_connections, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?)', v)
c.commit()`,
    path.join(target.dataDir, "data.db"),
    JSON.stringify(values),
  ]);
}
