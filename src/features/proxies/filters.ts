// The My Proxies query (spec 2.16): what the search box and the two filters mean as a
// PocketBase filter. Always scoped to the signed-in user's own proxies (an admin's list
// rule would otherwise show every proxy).
import type PocketBase from "pocketbase";
import { PROXY_TYPE_LABELS, PROXY_TYPES, type ProxyType } from "@/lib/catalog";
import { containsPattern } from "@/lib/filter";

export const PROXIES_PER_PAGE = 12;
/** Newest first (spec 7), the id breaks ties so pages never overlap. */
export const PROXY_SORT = "-created,id";

export const PROXY_TYPE_OPTIONS: ReadonlyArray<{ value: ProxyType; label: string }> = PROXY_TYPES.map((value) => ({
  value,
  label: PROXY_TYPE_LABELS[value],
}));

export interface ProxyCriteria {
  /** Free text matched against host, username, country, state and city. */
  search: string;
  type: ProxyType | "";
  country: string;
}

export const NO_CRITERIA: ProxyCriteria = { search: "", type: "", country: "" };

export function hasCriteria(criteria: ProxyCriteria): boolean {
  return criteria.search.trim() !== "" || criteria.type !== "" || criteria.country !== "";
}

const SEARCH_FIELDS = ["host", "username", "country", "state", "city"] as const;

/** The filter of "my proxies matching these criteria" (only mine when `criteria` is empty). */
export function proxyFilter(client: Pick<PocketBase, "filter">, userId: string, criteria: ProxyCriteria = NO_CRITERIA): string {
  const parts = [client.filter("assigned_to_user_id = {:userId}", { userId })];
  const search = criteria.search.trim();
  if (search) {
    const pattern = containsPattern(search);
    parts.push(`(${SEARCH_FIELDS.map((field) => client.filter(`${field} ~ {:q}`, { q: pattern })).join(" || ")})`);
  }
  if (criteria.type) parts.push(client.filter("type = {:type}", { type: criteria.type }));
  if (criteria.country) parts.push(client.filter("country = {:country}", { country: criteria.country }));
  return parts.join(" && ");
}
