// Issue #17, "Upgrades and service": a PocketBase whose migrations dir lacks a migration
// already applied to the data dir (a newer shop ran on it) refuses to start, before serving
// or migrating anything, naming the migration (pocketbase/downgrade_guard.go).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HOOKS_DIR, MIGRATIONS_DIR, POCKETBASE_BIN } from "../../server/pocketbase-process.ts";
import { fileDigests } from "../support/files.ts";
import { createTestUser, freePort, startTestPocketBase, TEST_CREDENTIALS_KEY } from "../support/pocketbase.ts";

describe("a downgrade onto a newer database", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "proxyshop-downgrade-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("refuses to start, names the unknown migration and leaves the data untouched; the newer build still runs it", async () => {
    const dataDir = path.join(scratch, "data");
    const all = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith(".js"))
      .sort();
    const newest = all.at(-1)!;
    const olderMigrations = path.join(scratch, "older-migrations");
    for (const file of all.slice(0, -1)) cpSync(path.join(MIGRATIONS_DIR, file), path.join(olderMigrations, file));

    // The newer shop runs on the data dir: a customer signs up.
    let tpb = await startTestPocketBase({}, { dataDir });
    const customer = await createTestUser(await tpb.superuser(), { email: "kept@downgrade.test" });
    await tpb.stop();
    const before = fileDigests(dataDir);
    expect(Object.keys(before)).toContain("data.db");

    const message =
      `This data was last run by a newer version of the shop (migration ${newest} is unknown to this one). ` +
      "Run that version or newer, or restore a backup made by this version.";

    // The shop's start (superuser-from-env, then serve) with the older migrations.
    const refusal = await startTestPocketBase({}, { dataDir, migrationsDir: olderMigrations }).then(
      async (started) => {
        await started.stop(); // (the guard failed: leave no PocketBase running)
        return "started";
      },
      (err: Error) => err.message,
    );
    expect(refusal).toContain(message);

    // serve alone: exits 1 with the message, never listens.
    const port = await freePort();
    const serve = spawnSync(
      POCKETBASE_BIN,
      [
        "serve",
        `--http=127.0.0.1:${port}`,
        `--dir=${dataDir}`,
        `--hooksDir=${HOOKS_DIR}`,
        `--migrationsDir=${olderMigrations}`,
        "--hooksWatch=false",
      ],
      { env: { ...process.env, SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY }, encoding: "utf8", timeout: 20_000 },
    );
    expect(serve.signal).toBeNull();
    expect(serve.status).toBe(1);
    expect(serve.stderr.trim()).toBe(message);
    expect(serve.stdout).not.toContain("Server started");

    // admin-setup (it applies migrations before making a token) is refused the same way.
    const setup = spawnSync(
      POCKETBASE_BIN,
      ["admin-setup", `--dir=${dataDir}`, `--hooksDir=${HOOKS_DIR}`, `--migrationsDir=${olderMigrations}`],
      { env: { ...process.env, SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY }, encoding: "utf8", timeout: 20_000 },
    );
    expect([setup.status, setup.stdout, setup.stderr.trim()]).toEqual([1, "", message]);

    // Nothing in the data dir changed: no migration ran, no file was even opened for writing.
    expect(fileDigests(dataDir)).toEqual(before);

    // The newer build still starts on it, and the customer is there.
    tpb = await startTestPocketBase({}, { dataDir });
    try {
      const su = await tpb.superuser();
      expect((await su.collection("users").getOne(customer.id))["email"]).toBe("kept@downgrade.test");
    } finally {
      await tpb.stop();
    }
  });
});
