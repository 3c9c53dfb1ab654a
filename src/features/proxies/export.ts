// The My Proxies exports: a CSV of every matching proxy (spec 9: every value quoted,
// formulas neutralised by toCsv; the status as the page says it, "Active", and the expiry as
// an ISO 8601 UTC time) and two plain lists that proxy tools read (an IPv6 host in
// brackets). Loaded with papaparse on the first export, not with the page.
import { toCsv } from "@/lib/csv";
import { todayStamp } from "@/lib/dates";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { EXPORT_FORMATS, type ProxyExportFormat } from "@/features/proxies/export-formats";
import { STATUS_BADGES } from "@/features/proxies/format";
import { endpoint } from "@/lib/endpoint";

export const PROXY_CSV_HEADER = [
  "Host",
  "Port",
  "Username",
  "Password",
  "Type",
  "Country",
  "State",
  "City",
  "Status",
  "Expires (UTC)",
] as const;

type Exported = Pick<
  ProxyRecord,
  "host" | "port" | "username" | "password" | "type" | "country" | "state" | "city" | "status" | "expires_at"
>;

/** "2026-02-01T12:30:00Z" from PocketBase's "2026-02-01 12:30:00.000Z"; "" without a date. */
export function isoUtc(date: string): string {
  const time = date ? new Date(date.replace(" ", "T")) : null;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString().replace(/\.\d{3}Z$/, "Z") : "";
}

export function proxiesCsv(proxies: readonly Exported[]): string {
  return toCsv(
    PROXY_CSV_HEADER,
    proxies.map((p) => [
      p.host,
      p.port,
      p.username,
      p.password,
      p.type,
      p.country,
      p.state,
      p.city,
      STATUS_BADGES[p.status]?.label ?? p.status,
      isoUtc(p.expires_at),
    ]),
  );
}

/** One proxy a line, `host:port:username:password` (`[2001:db8::1]:8080:...` for IPv6). */
export function colonList(proxies: readonly Exported[]): string {
  return proxies.map((p) => `${endpoint(p)}:${p.username}:${p.password}\n`).join("");
}

/** One proxy a line, `username:password@host:port` (`...@[2001:db8::1]:8080` for IPv6). */
export function urlList(proxies: readonly Exported[]): string {
  return proxies.map((p) => `${p.username}:${p.password}@${endpoint(p)}\n`).join("");
}

/** The file to download for `format`: name (with today's date), content and type. */
export function proxyExport(format: ProxyExportFormat, proxies: readonly Exported[], now: Date = new Date()) {
  const spec = EXPORT_FORMATS[format];
  const content = format === "csv" ? proxiesCsv(proxies) : format === "colon" ? colonList(proxies) : urlList(proxies);
  return { fileName: spec.fileName(todayStamp(now)), content, mime: spec.mime };
}
