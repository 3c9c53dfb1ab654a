// Dates as the spec shows them. PocketBase dates look like "2026-01-02 03:04:05.678Z" (UTC).
import { format } from "date-fns";

/** A PocketBase date (or ISO text) as a Date; null when empty or unreadable. */
export function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value.includes("T") ? value : value.replace(" ", "T"));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'MMM dd, yyyy HH:mm' in the viewer's time zone (spec 2.17): "Jan 02, 2026 03:04". */
export function formatDateTime(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? format(date, "MMM dd, yyyy HH:mm") : "";
}

/** 'MMM dd, yyyy': "Jan 02, 2026". */
export function formatDate(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? format(date, "MMM dd, yyyy") : "";
}

/** `date` moved so that formatting it in this machine's zone shows its UTC wall clock. */
function utcWallClock(date: Date): Date {
  return new Date(date.getTime() + date.getTimezoneOffset() * 60_000);
}

/**
 * formatDateTime and formatDate in UTC, whatever the machine's zone: what server-rendered
 * HTML (and the browser's first render, which must match it) shows, since the server
 * cannot know the viewer's zone.
 */
export function formatDateTimeUtc(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? format(utcWallClock(date), "MMM dd, yyyy HH:mm") : "";
}

export function formatDateUtc(value: string | null | undefined): string {
  const date = parseDate(value);
  return date ? format(utcWallClock(date), "MMM dd, yyyy") : "";
}

/**
 * Days from now until `value`, counting a started day as a day: a proxy bought a moment ago
 * for 30 days has 30 days left, one expiring in 3 hours 1 day. Negative once past.
 */
export function daysUntil(value: string | null | undefined, now: Date = new Date()): number | null {
  const date = parseDate(value);
  if (!date) return null;
  const days = (date.getTime() - now.getTime()) / 86_400_000;
  return days > 0 ? Math.ceil(days) : Math.floor(days);
}

/** "yyyy-MM-dd" of today, for file names. */
export function todayStamp(now: Date = new Date()): string {
  return format(now, "yyyy-MM-dd");
}
