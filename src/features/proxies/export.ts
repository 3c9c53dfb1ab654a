// The My Proxies exports: a CSV of every matching proxy (spec 9: every value quoted,
// formulas neutralised by toCsv) and two plain lists that proxy tools read.
import { toCsv } from "@/lib/csv";
import { todayStamp } from "@/lib/dates";
import type { ProxyRecord } from "@/lib/pocketbase-types";

export const PROXY_CSV_HEADER = ["Host", "Port", "Username", "Password", "Type", "Country", "State", "City", "Status"] as const;

export type ProxyExportFormat = "csv" | "colon" | "url";

export const EXPORT_FORMATS: Record<ProxyExportFormat, { label: string; mime: string; fileName: (stamp: string) => string }> = {
  csv: { label: "Export CSV", mime: "text/csv;charset=utf-8", fileName: (stamp) => `proxies-${stamp}.csv` },
  colon: {
    label: "Export host:port:username:password",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-${stamp}.txt`,
  },
  url: {
    label: "Export username:password@host:port",
    mime: "text/plain;charset=utf-8",
    fileName: (stamp) => `proxies-auth-${stamp}.txt`,
  },
};

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
