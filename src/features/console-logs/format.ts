// How the Audit Logs page shows an entry (admin spec 2, "Audit Logs").

/**
 * An action name in title case: every word between dots and underscores capitalised,
 * "users.balance_credit" -> "Users Balance Credit", "referrals.pay" -> "Referrals Pay".
 */
export function actionTitle(action: string): string {
  return action
    .split(/[._\s-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** The details as indented JSON ("" when there are none). */
export function detailsJson(details: unknown): string {
  if (details === null || details === undefined) return "";
  if (typeof details === "object" && Object.keys(details).length === 0) return "";
  return JSON.stringify(details, null, 2);
}

/** The first 8 characters of a target id (the spec's short form). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** "Ada Lovelace", or "" when the admin has no names. */
export function adminName(first: string, last: string): string {
  return [first, last].filter(Boolean).join(" ");
}

/** Whether Previous/Next show: once a page is full, or past page 1 (spec: "shown when a page is full"). */
export function showPager(page: number, itemsOnPage: number, perPage: number): boolean {
  return page > 1 || itemsOnPage >= perPage;
}
