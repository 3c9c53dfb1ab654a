// #26 finding 11: the folders and files the shop trusts (server/trusted-path.ts). The
// release's runtime folder and its parent (server/release/runtime-folder.ts), `.secrets/`
// and the credentials key file (server/pocketbase-process.ts: readCredentialsKeyFile, used by
// `npm start`/`serve`, `backup` and `admin create`) are refused when another user owns them
// or others may write to them, with a message naming the path, its owner or mode and the fix.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { setupLink } from "../../server/admin-setup.ts";
import { backupDataDir } from "../../server/backup-restore.ts";
import { credentialsKeyFromFile, newCredentialsKey } from "../../server/pocketbase-process.ts";
import { ensureRuntime } from "../../server/release/runtime-folder.ts";
import { untrustedReason, type Ownership } from "../../server/trusted-path.ts";

const root = mkdtempSync(path.join(os.tmpdir(), "proxyshop-trusted-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

let n = 0;
/** A new folder of this test run, owned by this process, mode 0700. */
function folder(): string {
  const dir = path.join(root, `case-${++n}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** A data dir in a new folder, with its key file kept beside it the way `npm start` keeps it. */
function keptKey(): { dataDir: string; secrets: string; keyFile: string } {
  const dataDir = path.join(folder(), "shop-data");
  mkdirSync(dataDir);
  writeFileSync(path.join(dataDir, "data.db"), "");
  const keyFile = path.join(path.dirname(dataDir), ".secrets", "shop-data.credentials-key");
  credentialsKeyFromFile(keyFile);
  return { dataDir, secrets: path.dirname(keyFile), keyFile };
}

const asRoot = process.getuid?.() === 0;
const stat = (uid: number, mode: number, dir = true): Ownership => ({ uid, mode, isDirectory: () => dir });
const alice = { uid: 1000, name: "alice" };
const rootUser = { uid: 0, name: "root" };

describe("untrustedReason (finding 11)", () => {
  it("finding 11: trusts what the shop's own user or root owns, writable by that owner only", () => {
    expect(untrustedReason("The runtime folder", "/srv/x", stat(1000, 0o40700), alice)).toBeNull();
    expect(untrustedReason("The runtime folder", "/srv/x", stat(1000, 0o40755), alice)).toBeNull();
    expect(untrustedReason("The runtime folder", "/srv/x", stat(0, 0o40755), alice)).toBeNull();
    expect(untrustedReason("The credentials key file", "/srv/k", stat(1000, 0o100600, false), alice)).toBeNull();
    expect(untrustedReason("The runtime folder", "/srv/x", stat(0, 0o40700), rootUser)).toBeNull();
  });

  it("finding 11: refuses another user's folder, naming the path, the owner and the chown that fixes it", () => {
    expect(untrustedReason("The runtime folder", "/srv/x", stat(1001, 0o40700), alice)).toBe(
      "The runtime folder /srv/x is owned by uid 1001, not by alice (uid 1000, whom the shop runs as) or root: that user could change what the shop runs or reads. Check it, then: sudo chown -R alice '/srv/x'",
    );
    expect(untrustedReason("The credentials key file", "/srv/k", stat(1001, 0o100600, false), alice)).toContain(
      "sudo chown alice '/srv/k'",
    );
  });

  it("finding 11: a shop running as root refuses a folder of another, non-root user it would run programs from", () => {
    const reason = untrustedReason("The runtime folder", "/srv/x", stat(1000, 0o40700), rootUser);
    expect(reason).toContain("is owned by uid 1000, not by root (the shop runs as root)");
    expect(reason).toContain("sudo chown -R root '/srv/x'");
  });

  it("finding 11: refuses a folder or key file writable by its group or every user, naming the mode and the chmod that fixes it", () => {
    expect(untrustedReason("The runtime folder's parent", "/srv/p", stat(1000, 0o40775), alice)).toBe(
      "The runtime folder's parent /srv/p is writable by its group (mode 0775): another user could change what the shop runs or reads. Check it, then: chmod -R go-w '/srv/p'",
    );
    expect(untrustedReason("The credentials key file", "/srv/k", stat(1000, 0o100666, false), alice)).toContain(
      "is writable by its group and every user (mode 0666)",
    );
    expect(untrustedReason("The credentials key file", "/srv/k", stat(0, 0o100602, false), alice)).toContain(
      "is writable by every user (mode 0602): another user could change what the shop runs or reads. Check it, then: chmod go-w '/srv/k'",
    );
  });
});

describe("the credentials key file (finding 11)", () => {
  it("finding 11: is made in a .secrets/ of mode 0700, mode 0600, and read back", () => {
    const keyFile = path.join(folder(), ".secrets", "pb_data.credentials-key");
    const made = credentialsKeyFromFile(keyFile);
    expect(made.created).toBe(true);
    expect(statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(credentialsKeyFromFile(keyFile)).toEqual({ key: made.key, created: false });
  });

  it("finding 11: a key file writable by others is refused, naming it, its mode and chmod", () => {
    const { keyFile } = keptKey();
    chmodSync(keyFile, 0o666);
    expect(() => credentialsKeyFromFile(keyFile)).toThrow(
      `Refusing to go on: The credentials key file ${keyFile} is writable by its group and every user (mode 0666): another user could change what the shop runs or reads. Check it, then: chmod go-w '${keyFile}'`,
    );
  });

  it("finding 11: a .secrets/ folder writable by others is refused, when reading the key and before making one", () => {
    const { secrets, keyFile } = keptKey();
    chmodSync(secrets, 0o777);
    expect(() => credentialsKeyFromFile(keyFile)).toThrow(
      `The credentials key's folder ${secrets} is writable by its group and every user`,
    );
    rmSync(keyFile);
    expect(() => credentialsKeyFromFile(keyFile)).toThrow(`The credentials key's folder ${secrets} is writable`);
    expect(existsSync(keyFile)).toBe(false);
  });

  it.runIf(asRoot)("finding 11: a key file or .secrets/ of another user is refused, the shop running as root", () => {
    const { secrets, keyFile } = keptKey();
    chownSync(keyFile, 4242, 4242);
    expect(() => credentialsKeyFromFile(keyFile)).toThrow(`The credentials key file ${keyFile} is owned by uid 4242, not by root`);
    chownSync(keyFile, 0, 0);
    chownSync(secrets, 4242, 4242);
    expect(() => credentialsKeyFromFile(keyFile)).toThrow(`The credentials key's folder ${secrets} is owned by uid 4242`);
  });

  it("finding 11: `backup` and `admin create` refuse the same key file the same way", async () => {
    vi.stubEnv("SHOP_CREDENTIALS_KEY", "");
    const { dataDir, keyFile } = keptKey();
    chmodSync(keyFile, 0o620);
    const refusal = `The credentials key file ${keyFile} is writable by its group (mode 0620)`;
    await expect(backupDataDir({ dataDir, outDir: folder(), env: {} })).rejects.toThrow(refusal);
    await expect(setupLink({ dataDir, appUrl: "http://localhost:4321", email: "a@example.test" })).rejects.toThrow(refusal);
    // With SHOP_CREDENTIALS_KEY set the file is not read: admin create goes on (to a PocketBase that is not there).
    vi.stubEnv("SHOP_CREDENTIALS_KEY", newCredentialsKey());
    await expect(
      setupLink({ dataDir, appUrl: "http://localhost:4321", email: "a@example.test", pocketbaseBin: "/nonexistent" }),
    ).rejects.toThrow("Could not make a setup link");
  });
});

describe("the release's runtime folder (finding 11)", () => {
  const extractInto = (dir: string) => writeFileSync(path.join(dir, "app.mjs"), "");

  it("finding 11: is extracted into a parent of mode 0700, reused, and other builds' folders go", () => {
    const parent = path.join(folder(), ".proxy-shop-runtime");
    expect(ensureRuntime(parent, "0.1.0-aaaa", extractInto)).toEqual({
      dir: path.join(parent, "0.1.0-aaaa"),
      extractedMs: expect.any(Number) as number,
    });
    mkdirSync(path.join(parent, "0.0.9-bbbb"), { mode: 0o700 });
    const extract = vi.fn(extractInto);
    expect(ensureRuntime(parent, "0.1.0-aaaa", extract)).toEqual({ dir: path.join(parent, "0.1.0-aaaa"), extractedMs: null });
    expect(extract).not.toHaveBeenCalled();
    expect(existsSync(path.join(parent, "0.0.9-bbbb"))).toBe(false);
  });

  it("finding 11: a parent writable by others is refused before anything is extracted or removed", () => {
    const parent = path.join(folder(), ".proxy-shop-runtime");
    mkdirSync(path.join(parent, "0.0.9-bbbb"), { recursive: true, mode: 0o700 });
    chmodSync(parent, 0o777);
    const extract = vi.fn(extractInto);
    expect(() => ensureRuntime(parent, "0.1.0-aaaa", extract)).toThrow(
      `Refusing to go on: The runtime folder's parent ${parent} is writable by its group and every user (mode 0777): another user could change what the shop runs or reads. Check it, then: chmod -R go-w '${parent}'`,
    );
    expect(extract).not.toHaveBeenCalled();
    expect(existsSync(path.join(parent, "0.0.9-bbbb"))).toBe(true);
  });

  it("finding 11: a runtime folder writable by others is not reused", () => {
    const parent = path.join(folder(), ".proxy-shop-runtime");
    const { dir } = ensureRuntime(parent, "0.1.0-aaaa", extractInto);
    chmodSync(dir, 0o770);
    expect(() => ensureRuntime(parent, "0.1.0-aaaa", extractInto)).toThrow(
      `The runtime folder ${dir} is writable by its group (mode 0770)`,
    );
  });

  it.runIf(asRoot)("finding 11: a runtime folder of another user is not reused by a shop running as root", () => {
    const parent = path.join(folder(), ".proxy-shop-runtime");
    const { dir } = ensureRuntime(parent, "0.1.0-aaaa", extractInto);
    chownSync(dir, 4242, 4242);
    expect(() => ensureRuntime(parent, "0.1.0-aaaa", extractInto)).toThrow(`The runtime folder ${dir} is owned by uid 4242, not by root`);
    chownSync(dir, 0, 0);
    chownSync(parent, 4242, 4242);
    expect(() => ensureRuntime(parent, "0.1.0-aaaa", extractInto)).toThrow(`The runtime folder's parent ${parent} is owned by uid 4242`);
  });
});
