// The settings, active plans and stocked countries every page is rendered from, held in memory.
// Loaded once from PocketBase, then reloaded whenever a PocketBase hook announces a
// change on the "public_content" realtime topic (pb_hooks/settings.pb.js; the count of
// stocked countries: lib/proxies/stock-summary.js), and
// on every (re)connect so nothing is missed while the stream was down.
import PocketBase from "pocketbase";
import { EventSource } from "eventsource";
import { apiThrough } from "@/lib/api-client";
import { getStockSummary } from "@/lib/api-contract/admin/shop";
import { DEFAULT_CONTENT, settingsFromRows, type PricingPlan, type SiteContent } from "@/lib/site";
import { coalesce } from "@/lib/server/coalesce";
import { pocketbaseUrl } from "@/lib/server/config";

export const PUBLIC_CONTENT_TOPIC = "public_content";

interface Snapshot {
  content: SiteContent;
  /** Bumped on every reload; the page cache keys on it. */
  version: number;
}

let snapshot: Snapshot = { content: DEFAULT_CONTENT, version: 0 };
let started: Promise<void> | null = null;

async function fetchContent(pb: PocketBase): Promise<SiteContent> {
  const [rows, plans, stock] = await Promise.all([
    pb.collection("settings").getFullList<{ key: string; value: string }>({ fields: "key,value", requestKey: null }),
    pb.collection("pricing_plans").getFullList<PricingPlan>({
      filter: "active = true",
      sort: "price_cents,name",
      fields: "id,name,type,price_cents,features,popular,active",
      requestKey: null,
    }),
    apiThrough(() => pb).call(getStockSummary),
  ]);
  return { settings: settingsFromRows(rows), plans, stockCountries: stock.countries };
}

async function reload(pb: PocketBase): Promise<void> {
  try {
    snapshot = { content: await fetchContent(pb), version: snapshot.version + 1 };
  } catch (err) {
    console.error(`[site-content] could not load settings and plans from ${pocketbaseUrl()}:`, err);
  }
}

function start(): Promise<void> {
  (globalThis as { EventSource?: unknown }).EventSource ??= EventSource;
  const pb = new PocketBase(pocketbaseUrl());
  pb.autoCancellation(false);
  // One reload at a time; a change announced during a reload gets one more after it.
  const requestReload = coalesce(() => reload(pb));
  const firstLoad = requestReload();
  // PB_CONNECT fires on the first connect and on every reconnect.
  void pb.realtime.subscribe("PB_CONNECT", () => void requestReload()).catch(() => {});
  void pb.realtime
    .subscribe(PUBLIC_CONTENT_TOPIC, () => void requestReload())
    .catch((err: unknown) => {
      console.error("[site-content] realtime subscription failed; changes will show after a restart:", err);
    });
  return firstLoad;
}

export async function getSiteSnapshot(): Promise<Snapshot> {
  started ??= start();
  await started;
  return snapshot;
}
