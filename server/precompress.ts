// Build step: every compressible file of the client build (dist/client) gets a brotli
// (.br) and a gzip (.gz) copy beside it, at the highest levels, so the web server sends
// them without compressing per request (server/static-files.ts). Run by the Astro
// integration in astro.config.mjs when `astro build` is done.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import type { Coding } from "../src/lib/server/http-cache.ts";
import { compressOnce, MIN_COMPRESS_BYTES } from "./compression.ts";

export const PRECOMPRESSED_EXTENSION: Readonly<Record<Coding, string>> = { br: ".br", gzip: ".gz" };

const COMPRESSIBLE_EXTENSIONS = new Set([".js", ".mjs", ".css", ".svg", ".html", ".json", ".map", ".webmanifest", ".txt", ".xml"]);

/** A copy is kept only when it saves at least this share of the bytes. */
const MIN_SAVING = 0.05;

export interface PrecompressStats {
  files: number;
  bytes: number;
  br: number;
  gzip: number;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Writes the .br and .gz copies of every compressible file under `dir`; idempotent. */
export async function precompressDir(dir: string): Promise<PrecompressStats> {
  const stats: PrecompressStats = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE_EXTENSIONS.has(path.extname(f).toLowerCase()));
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_COMPRESS_BYTES) return;
      const bytes = await readFile(file);
      stats.files++;
      stats.bytes += bytes.byteLength;
      for (const [coding, ext] of Object.entries(PRECOMPRESSED_EXTENSION) as [Coding, string][]) {
        const coded = await compressOnce(bytes, coding);
        if (coded.byteLength > bytes.byteLength * (1 - MIN_SAVING)) continue;
        await writeFile(file + ext, coded);
        stats[coding] += coded.byteLength;
      }
    }),
  );
  return stats;
}

/** The Astro integration: precompresses the client build once `astro build` is done. */
export function precompress(): AstroIntegration {
  let clientDir: URL | null = null;
  return {
    name: "proxy-shop:precompress",
    hooks: {
      "astro:config:done": ({ config }) => {
        clientDir = config.output === "static" ? config.outDir : config.build.client;
      },
      "astro:build:done": async ({ logger }) => {
        if (!clientDir) return;
        const dir = fileURLToPath(clientDir);
        const s = await precompressDir(dir);
        const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
        logger.info(`${s.files} files in ${path.relative(process.cwd(), dir)}: ${kb(s.bytes)} -> brotli ${kb(s.br)}, gzip ${kb(s.gzip)}`);
      },
    },
  };
}
