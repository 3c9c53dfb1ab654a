// Brings the whole product up: PocketBase on loopback, Litestream beside it when a replica is
// configured, then the web server in front of them.
// Used by `npm start`, the end-to-end tests and the benchmarks.
import type { TrustedProxies } from "./client-address.ts";
import { startLitestream, type LitestreamProcess, type Replica } from "./litestream.ts";
import { newCredentialsKey, startPocketBase, type PocketBaseProcess } from "./pocketbase-process.ts";
import { startWebServer, type WebServer } from "./web-server.ts";
import { PUBLIC_DOCUMENTS, PUBLIC_PATHS } from "../src/lib/server/page-cache.ts";

export interface ShopOptions {
  webPort: number;
  webHost?: string;
  pocketbasePort: number;
  dataDir: string;
  superuserEmail: string;
  superuserPassword: string;
  /** Environment for the PocketBase hooks (demo seed, SMTP, app URL ...). */
  hooksEnv?: Record<string, string>;
  /**
   * The key that encrypts proxy passwords (SHOP_CREDENTIALS_KEY). Default: the one in
   * hooksEnv or this process's environment, else a new random key, which suits only a
   * throwaway data dir (tests, benchmarks): a kept data dir needs its key kept too
   * (`npm start` keeps it in a file, scripts/start.ts).
   */
  credentialsKey?: string;
  trustForwardedFor?: TrustedProxies;
  /** Serve the PocketBase dashboard to non-loopback clients (off by default). */
  exposeDashboard?: boolean;
  verbose?: boolean;
  /**
   * Continuous replication of data.db (server/litestream.ts): Litestream starts once
   * PocketBase is up and stops after it, so its last sync carries the last writes.
   */
  litestream?: { replica: Replica; metaDir?: string };
}

export interface Shop {
  url: string;
  pocketbase: PocketBaseProcess;
  /** Null when no replica is configured. */
  litestream: LitestreamProcess | null;
  web: WebServer;
  stop(): Promise<void>;
}

export async function startShop(options: ShopOptions): Promise<Shop> {
  const pocketbase = await startPocketBase({
    dataDir: options.dataDir,
    port: options.pocketbasePort,
    superuserEmail: options.superuserEmail,
    superuserPassword: options.superuserPassword,
    env: {
      ...options.hooksEnv,
      // Tells the hooks Litestream replicates (a restore in place is refused then).
      SHOP_LITESTREAM_REPLICA: options.litestream?.replica.where ?? "",
      SHOP_CREDENTIALS_KEY:
        options.credentialsKey ?? options.hooksEnv?.["SHOP_CREDENTIALS_KEY"] ?? process.env["SHOP_CREDENTIALS_KEY"] ?? newCredentialsKey(),
    },
    verbose: options.verbose ?? false,
  });
  let litestream: LitestreamProcess | null = null;
  // The shop's public address, for absolute links the web server writes (sitemap.xml,
  // robots.txt); the same one PocketBase's mails use.
  const appUrl = options.hooksEnv?.["SHOP_APP_URL"];
  if (appUrl) process.env["SHOP_APP_URL"] = appUrl;
  let web: WebServer;
  try {
    if (options.litestream) {
      litestream = await startLitestream({
        dataDir: options.dataDir,
        replica: options.litestream.replica,
        ...(options.litestream.metaDir ? { metaDir: options.litestream.metaDir } : {}),
        verbose: options.verbose ?? false,
      });
    }
    web = await startWebServer({
      port: options.webPort,
      ...(options.webHost ? { host: options.webHost } : {}),
      pocketbaseUrl: pocketbase.url,
      forwardingSecret: pocketbase.forwardingSecret,
      trustForwardedFor: options.trustForwardedFor ?? false,
      exposeDashboard: options.exposeDashboard ?? false,
      canonicalUrl: appUrl,
    });
  } catch (err) {
    await pocketbase.stop();
    await litestream?.stop();
    throw err;
  }

  if (!appUrl && !process.env["SHOP_APP_URL"]) process.env["SHOP_APP_URL"] = web.url;

  // Render every public page once, then ask again so the web server has it compressed:
  // the first visitor is served from memory.
  const warm = () =>
    Promise.all(
      [...PUBLIC_PATHS, ...PUBLIC_DOCUMENTS].map((p) =>
        fetch(web.url + p, { headers: { "accept-encoding": "br, gzip" } })
          .then((r) => r.arrayBuffer())
          .catch(() => {}),
      ),
    );
  await warm();
  await warm();

  return {
    url: web.url,
    pocketbase,
    litestream,
    web,
    async stop() {
      await web.stop();
      await pocketbase.stop();
      await litestream?.stop();
    },
  };
}
