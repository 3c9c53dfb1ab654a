// The release file carries the shop's runtime files (PocketBase, Litestream, hooks,
// migrations, the built site, the server bundles) as one compressed archive asset:
// a 4-byte big-endian header length, a JSON header ([path, mode, size] per file), then the
// files' bytes in that order, all gzipped. pack() runs in scripts/release.ts, unpack() in
// the launcher (builtins only).
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync, constants } from "node:zlib";

export interface ArchiveFile {
  /** Relative path with forward slashes. */
  path: string;
  mode: number;
  data: Buffer;
}

export function pack(files: ArchiveFile[]): Buffer {
  const header = Buffer.from(JSON.stringify(files.map((f) => [f.path, f.mode, f.data.length])));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return gzipSync(Buffer.concat([length, header, ...files.map((f) => f.data)]), { level: constants.Z_BEST_COMPRESSION });
}

/** Writes the archive's files under `dir` (which must exist); refuses paths that leave it. */
export function unpack(archive: ArrayBuffer | Buffer, dir: string): number {
  const bytes = gunzipSync(archive instanceof Buffer ? archive : new Uint8Array(archive));
  const headerLength = bytes.readUInt32BE(0);
  const entries = JSON.parse(bytes.subarray(4, 4 + headerLength).toString("utf8")) as [string, number, number][];
  let offset = 4 + headerLength;
  const root = path.resolve(dir);
  for (const [name, mode, size] of entries) {
    const target = path.resolve(root, name);
    if (!target.startsWith(root + path.sep)) throw new Error(`The release archive holds a path outside its folder: ${name}`);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    writeFileSync(target, bytes.subarray(offset, offset + size), { mode });
    chmodSync(target, mode);
    offset += size;
  }
  return entries.length;
}
