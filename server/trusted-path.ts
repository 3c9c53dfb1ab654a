// Folders and files the shop trusts (#26 finding 11): the release's runtime folder it runs
// programs from and that folder's parent (server/release/launcher.ts), `.secrets/` and the
// credentials key file in it (server/pocketbase-process.ts). Each must be owned by the user
// the shop runs as (or by root) and writable by no one else: otherwise another user could
// swap a program the shop runs or the key it encrypts proxy passwords with. The shop
// refuses to go on, naming the path, its owner or mode and the command that fixes it. A
// process running as root trusts root's files only: it would run another user's programs
// with root's rights. Builtins only: the launcher bundles this file.
import { statSync } from "node:fs";
import os from "node:os";

/** What the check needs of a path's stat. */
export interface Ownership {
  uid: number;
  mode: number;
  isDirectory(): boolean;
}

/** Whom the process runs as. */
export interface RunAs {
  uid: number;
  name: string;
}

/** Why `path` (a `what`, e.g. "The credentials key file") is not to be trusted by `runAs`; null when it is. */
export function untrustedReason(what: string, path: string, stat: Ownership, runAs: RunAs): string | null {
  const recursive = stat.isDirectory() ? "-R " : "";
  if (stat.uid !== runAs.uid && stat.uid !== 0) {
    const allowed = runAs.uid === 0 ? "root (the shop runs as root)" : `${runAs.name} (uid ${runAs.uid}, whom the shop runs as) or root`;
    return `${what} ${path} is owned by uid ${stat.uid}, not by ${allowed}: that user could change what the shop runs or reads. Check it, then: sudo chown ${recursive}${runAs.name} '${path}'`;
  }
  const writable = [stat.mode & 0o020 ? "its group" : "", stat.mode & 0o002 ? "every user" : ""].filter(Boolean).join(" and ");
  if (writable) {
    const mode = (stat.mode & 0o7777).toString(8).padStart(4, "0");
    return `${what} ${path} is writable by ${writable} (mode ${mode}): another user could change what the shop runs or reads. Check it, then: chmod ${recursive}go-w '${path}'`;
  }
  return null;
}

function currentUser(): RunAs | null {
  if (!process.getuid) return null; // not POSIX: no owners and modes to check
  const uid = process.getuid();
  let name = String(uid);
  try {
    name = os.userInfo().username;
  } catch {
    // a uid without a passwd entry: chown takes the number
  }
  return { uid, name };
}

/** Throws with untrustedReason's message when `path` (which must exist) is not to be trusted. */
export function assertTrusted(what: string, path: string): void {
  const runAs = currentUser();
  const reason = runAs && untrustedReason(what, path, statSync(path), runAs);
  if (reason) throw new Error(`Refusing to go on: ${reason}`);
}
