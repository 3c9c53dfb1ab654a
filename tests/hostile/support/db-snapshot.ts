// A fingerprint of every table of a PocketBase data dir's data.db (one SHA-256 per table
// over all its rows), read by a long-lived python3 sqlite3 reader opened read-only, so a
// test can compare the whole database before and after each request in a few milliseconds.
// Read-only (`mode=ro`) still sees PocketBase's WAL writes the moment they commit.
// A signed-in customer refused on /api/admin/* is audited on purpose ("admin.refused",
// issue #15): those rows are the one write a refused request may make, so they are left out.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface, type Interface } from "node:readline";

const READER = String.raw`
import hashlib, json, sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True, isolation_level=None)
db.execute("PRAGMA query_only = ON")
ONLY = {"audit_logs": " WHERE action != 'admin.refused'"}
for line in sys.stdin:
    out = {}
    try:
        db.execute("BEGIN")
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        for table in tables:
            h = hashlib.sha256()
            n = 0
            for row in db.execute('SELECT * FROM "%s"%s ORDER BY rowid' % (table.replace('"', '""'), ONLY.get(table, ""))):
                h.update(repr(row).encode("utf-8", "surrogatepass"))
                n += 1
            out[table] = "%d:%s" % (n, h.hexdigest()[:16])
        db.execute("COMMIT")
    except Exception as err:
        out = {"__error__": str(err)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`;

/** Table name -> "<row count>:<hash of all rows>". */
export type Snapshot = Record<string, string>;

export interface DbSnapshotter {
  take(): Promise<Snapshot>;
  close(): void;
}

/** A reader of `<dataDir>/data.db`. One request at a time (callers await each take). */
export function dbSnapshotter(dataDir: string): DbSnapshotter {
  const child: ChildProcessWithoutNullStreams = spawn("python3", ["-u", "-c", READER, path.join(dataDir, "data.db")], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Interface = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  return {
    take() {
      return new Promise<Snapshot>((resolve, reject) => {
        if (child.exitCode !== null) {
          reject(new Error(`the database reader exited: ${stderr}`));
          return;
        }
        waiting.push((line) => {
          const parsed = JSON.parse(line) as Snapshot;
          if (parsed["__error__"]) reject(new Error(`reading the database failed: ${parsed["__error__"]}`));
          else resolve(parsed);
        });
        child.stdin.write("\n");
      });
    },
    close() {
      child.stdin.end();
      lines.close();
    },
  };
}

/** The tables whose fingerprint differs between two snapshots (added or removed tables too). */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
