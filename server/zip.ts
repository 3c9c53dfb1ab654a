// Reads zip archives (PocketBase's backups: `restore` in server/backup-restore.ts, and the
// backup tests) with node:zlib: the central directory, then each entry's data, stored or deflated. No zip64 (PocketBase writes it only past 4 GB),
// no encryption. Every entry's CRC-32 is checked, so a torn archive fails loudly.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { crc32, inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

/** Every file entry of `zip` (directories skipped), decompressed and CRC-checked. */
export function readZip(zip: Buffer): ZipEntry[] {
  // The end-of-central-directory record: 22 bytes plus a comment of up to 64 KiB.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip archive (no end-of-central-directory record)");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);

  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new Error(`zip central directory entry ${n} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;

    if (zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) throw new Error(`zip entry ${name}: damaged local header`);
    const start = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
    const raw = zip.subarray(start, start + compressedSize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`zip entry ${name}: unsupported compression method ${method}`);
    if (data.length !== size || crc32(data) !== crc) throw new Error(`zip entry ${name}: size or CRC-32 mismatch`);
    entries.push({ name, data });
  }
  return entries;
}

/**
 * Writes `entries` (from readZip) under `dir` (entry names may not leave it), with `mode`
 * (default 0o644 less the umask); answers their names.
 */
export function writeEntries(entries: readonly ZipEntry[], dir: string, mode?: number): string[] {
  const root = path.resolve(dir);
  return entries.map((entry) => {
    const target = path.resolve(root, entry.name);
    if (!target.startsWith(root + path.sep)) throw new Error(`zip entry ${entry.name} would land outside ${dir}`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, entry.data, mode === undefined ? undefined : { mode });
    return entry.name;
  });
}

/** Writes every entry of `zip` under `dir` (entry names may not leave it). */
export function extractZip(zip: Buffer, dir: string): string[] {
  return writeEntries(readZip(zip), dir);
}
