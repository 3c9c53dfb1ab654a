// Issue #17, "Upgrades and service": replacing the release file and restarting upgrades in
// place. The x64 file of release/ runs on a data dir (a customer signs up) and stops; a
// second build of the same checkout with one extra migration (a settings row), made here
// with `release.ts --extra-migrations --version-suffix upgrade-test`, replaces the file and
// starts on the same data: the migration applied, the customer and the credentials key are
// still there, the old runtime folder is gone. Then the first file again on that data
// refuses to start with the downgrade message (pocketbase/downgrade_guard.go) and changes
// nothing. Run by `npm run test:release`, after release.test.ts's setup (same environment:
// no node nor go on PATH).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseFile } from "../../scripts/release.ts";
import { fileDigests } from "../support/files.ts";
import { freePort } from "../support/pocketbase.ts";
import { builtVersion, startServe, stopAll, type ReleaseRun } from "./support.ts";

const CHECKOUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const SUFFIX = "upgrade-test";
const MIGRATION = "1800000000_upgrade_test.js";
const DOWNGRADE_MESSAGE =
  `This data was last run by a newer version of the shop (migration ${MIGRATION} is unknown to this one). ` +
  "Run that version or newer, or restore a backup made by this version.";

let scratch = "";
let dir = "";
let binary = "";
let env: NodeJS.ProcessEnv = {};
let first = "";
let second = "";
let version = "";
/** The file in place serving on the data dir "data", on `port`. */
function start(port: number): Promise<ReleaseRun> {
  return startServe(binary, { cwd: dir, env, http: `127.0.0.1:${port}`, args: ["--data", "data"] });
}

/** The release file serving on a free port: its URL and how to stop it (exit code). */
async function serve(): Promise<{ url: string; output: () => string; stop: () => Promise<number | null> }> {
  const port = await freePort();
  const run = await start(port);
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (run.child.exitCode !== null) throw new Error(`The release file exited (${run.child.exitCode}):\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`The release file did not serve within 90 s:\n${run.output()}`);
    if (run.output().includes("Proxy shop is running at")) {
      const res = await fetch(`http://localhost:${port}/api/health`).catch(() => null);
      if (res?.status === 200) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://localhost:${port}`,
    output: run.output,
    async stop() {
      run.child.kill("SIGTERM");
      return run.exited;
    },
  };
}

/** Replaces the installed file (as an administrator would: the shop is stopped). */
function install(file: string): void {
  rmSync(binary, { force: true });
  copyFileSync(file, binary);
}

beforeAll(() => {
  version = builtVersion();
  first = releaseFile(version, "x64");
  scratch = mkdtempSync(path.join(os.tmpdir(), "proxyshop-upgrade-"));

  // The second build: this checkout plus one migration, a settings row.
  const extra = path.join(scratch, "extra-migrations");
  mkdirSync(extra);
  writeFileSync(
    path.join(extra, MIGRATION),
    `// @ts-check
// The upgrade test's extra migration (tests/release/upgrade.test.ts).
migrate(
  (app) => {
    const record = new Record(app.findCollectionByNameOrId("settings"));
    record.set("key", "upgrade_test");
    record.set("value", "applied by the second build");
    app.save(record);
  },
  (app) => {
    app.delete(app.findFirstRecordByData("settings", "key", "upgrade_test"));
  },
);
`,
  );
  const out = path.join(scratch, "second");
  const buildEnv = { ...process.env };
  delete buildEnv["SHOP_RUNTIME_DIR"];
  const built = spawnSync(
    "npx",
    ["tsx", "scripts/release.ts", "--arch", "x64", "--extra-migrations", extra, "--out", out, "--version-suffix", SUFFIX],
    { cwd: CHECKOUT, env: buildEnv, encoding: "utf8", timeout: 280_000 },
  );
  if (built.status !== 0) throw new Error(`The second build failed (${built.status}):\n${built.stdout}${built.stderr}`);
  second = releaseFile(`${version}-${SUFFIX}`, "x64", out);

  dir = path.join(scratch, "host");
  binary = path.join(dir, "proxy-shop");
  const emptyBin = path.join(dir, ".empty-bin");
  const home = path.join(dir, ".home");
  mkdirSync(emptyBin, { recursive: true });
  mkdirSync(home);
  // Like `env -i PATH=... HOME=...`: nothing of this process's environment.
  env = { PATH: emptyBin, HOME: home };
}, 300_000);

afterAll(async () => {
  await stopAll();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("replacing the release file", () => {
  it("upgrades in place: the new migration applies, the data and key stay, the old runtime goes; the older file then refuses the data", async () => {
    const runtimeParent = path.join(dir, ".proxy-shop-runtime");
    const keyFile = path.join(dir, ".secrets", "data.credentials-key");
    const settingRow = async (url: string) => {
      const rows = await new PocketBase(url).collection("settings").getFullList({ filter: 'key = "upgrade_test"' });
      return rows.map((r) => r["value"] as string);
    };

    // The first build: a customer signs up.
    install(first);
    const shop = await serve();
    const email = `upgrade-${Date.now()}@example.test`;
    let customer = { id: "", token: "" };
    try {
      const signup = await fetch(`${shop.url}/api/shop/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ first_name: "Up", last_name: "Grade", email, country: "Chile", ref: "" }),
      });
      const body = (await signup.json()) as { token: string; record: { id: string } };
      expect(signup.status, JSON.stringify(body)).toBe(200);
      customer = { id: body.record.id, token: body.token };
      expect(await settingRow(shop.url)).toEqual([]);
    } finally {
      expect(await shop.stop()).toBe(0);
    }
    const [oldBuild, ...others] = readdirSync(runtimeParent);
    expect(others).toEqual([]);
    expect(oldBuild).toMatch(new RegExp(`^${version.replace(/\./g, "\\.")}-[0-9a-f]{12}$`));
    const key = readFileSync(keyFile, "utf8");

    // The second build replaces the file, on the same data.
    install(second);
    const version2 = spawnSync(binary, ["version"], { cwd: dir, env, encoding: "utf8" });
    expect(version2.stdout).toContain(`proxy-shop ${version}-${SUFFIX} (linux-x64`);
    const upgraded = await serve();
    try {
      expect(await settingRow(upgraded.url)).toEqual(["applied by the second build"]);
      const buyer = new PocketBase(upgraded.url);
      buyer.authStore.save(customer.token, null);
      expect((await buyer.collection("users").getOne(customer.id))["email"]).toBe(email);
    } finally {
      expect(await upgraded.stop()).toBe(0);
    }
    const builds = readdirSync(runtimeParent);
    expect(builds).toHaveLength(1);
    expect(builds[0]).toMatch(new RegExp(`^${`${version}-${SUFFIX}`.replace(/\./g, "\\.")}-[0-9a-f]{12}$`));
    expect(readFileSync(keyFile, "utf8")).toBe(key);

    // The first build again: refused, with the migration named, and the data unchanged.
    const data = fileDigests(path.join(dir, "data"));
    install(first);
    const downgrade = await start(await freePort());
    const timer = setTimeout(() => downgrade.child.kill("SIGKILL"), 60_000);
    const code = await downgrade.exited;
    clearTimeout(timer);
    expect(code, downgrade.output()).toBe(1);
    expect(downgrade.output()).toContain(DOWNGRADE_MESSAGE);
    expect(downgrade.output()).not.toContain("Proxy shop is running at");
    expect(fileDigests(path.join(dir, "data"))).toEqual(data);
    expect(readFileSync(keyFile, "utf8")).toBe(key);
  });
});
