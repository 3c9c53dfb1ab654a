// #26 finding 13: backup zips are named to the millisecond with a random part
// (server/backup-restore.ts: backupFileName), and written only as new files under a name
// drawn again when it is taken (writeNewFile), so two backups made in the same second (a
// cron beside a manual one) both succeed and never overwrite each other.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupFileName, writeNewFile } from "../../server/backup-restore.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "proxyshop-backup-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("backup names (finding 13)", () => {
  it("finding 13: two backups in the same second, even the same millisecond, get different names", () => {
    const at = new Date("2026-11-28T19:19:15.042Z");
    const first = backupFileName("/var/lib/proxy-shop/shop-data", at);
    const second = backupFileName("/var/lib/proxy-shop/shop-data", at);
    expect(first).toMatch(/^shop-data-backup-20261128T191915\.042Z-[0-9a-f]{6}\.zip$/);
    expect(second).toMatch(/^shop-data-backup-20261128T191915\.042Z-[0-9a-f]{6}\.zip$/);
    expect(second).not.toBe(first);
    expect(backupFileName("pb_data", at, "00ff00")).toBe("pb_data-backup-20261128T191915.042Z-00ff00.zip");
    // Names sort by time.
    expect(
      backupFileName("pb_data", new Date("2026-11-28T19:19:15.999Z"), "000000") <
        backupFileName("pb_data", new Date("2026-11-28T19:19:16.000Z"), "000000"),
    ).toBe(true);
  });

  it("finding 13: a backup whose name is taken is written under another one; nothing is overwritten", () => {
    writeFileSync(path.join(dir, "taken.zip"), "an earlier backup");
    const names = ["taken.zip", "taken.zip", "free.zip"];
    const file = writeNewFile(dir, () => names.shift()!, Buffer.from("this backup"));
    expect(file).toBe(path.join(dir, "free.zip"));
    expect(readFileSync(path.join(dir, "taken.zip"), "utf8")).toBe("an earlier backup");
    expect(readFileSync(file, "utf8")).toBe("this backup");
    expect(readdirSync(dir).sort()).toEqual(["free.zip", "taken.zip"]);
  });
});
