// Everything the web server does not stream to PocketBase: a cached public page (answered
// from memory), else a file of the client build (precompressed), else Astro's handler,
// whose answer is compressed on the fly when it pays.
import type { IncomingMessage, ServerResponse } from "node:http";
import { compressWrites } from "./compression.ts";
import { compressPublishedPages, servePublicPage } from "./public-pages.ts";
import { staticFiles } from "./static-files.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function frontDoor(astro: Handler, clientDir: string): Handler {
  compressPublishedPages();
  const files = staticFiles(clientDir);
  const toAstro: Handler = (req, res) => {
    compressWrites(req, res);
    astro(req, res);
  };
  return (req, res) => {
    if (servePublicPage(req, res, toAstro)) return;
    if (files(req, res)) return;
    toAstro(req, res);
  };
}
