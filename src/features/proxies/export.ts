// The My Proxies exports: a CSV of every matching proxy (spec 9: every value quoted,
// formulas neutralised by toCsv) and two plain lists that proxy tools read. Loaded with
// papaparse on the first export, not with the page.
import { toCsv } from "@/lib/csv";
import { todayStamp } from "@/lib/dates";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { EXPORT_FORMATS, type ProxyExportFormat } from "@/features/proxies/export-formats";

export const PROXY_CSV_HEADER = ["Host", "Port", "Username", "Password", "Type", "Country", "State", "City", "Status"] as const;

type Exported = Pick<ProxyRecord, "host" | "port" | "username" | "password" | "type" | "country" | "state" | "city" | "status">;

export function proxiesCsv(proxies: readonly Exported[]): string {
  return toCsv(
    PROXY_CSV_HEADER,
    proxies.map((p) => [p.host, p.port, p.username, p.password, p.type, p.country, p.state, p.city, p.status]),
  );
}

/** One proxy a line, `host:port:username:password`. */
export function colonList(proxies: readonly Exported[]): string {
  return proxies.map((p) => `${p.host}:${p.port}:${p.username}:${p.password}\n`).join("");
}

/** One proxy a line, `username:password@host:port`. */
export function urlList(proxies: readonly Exported[]): string {
  return proxies.map((p) => `${p.username}:${p.password}@${p.host}:${p.port}\n`).join("");
}

/** The file to download for `format`: name (with today's date), content and type. */
export function proxyExport(format: ProxyExportFormat, proxies: readonly Exported[], now: Date = new Date()) {
  const spec = EXPORT_FORMATS[format];
  const content = format === "csv" ? proxiesCsv(proxies) : format === "colon" ? colonList(proxies) : urlList(proxies);
  return { fileName: spec.fileName(todayStamp(now)), content, mime: spec.mime };
}
