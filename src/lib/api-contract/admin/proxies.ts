// Proxy Management (pb_hooks/proxies.pb.js): the inventory with its filters and stats, one
// proxy with its password and usage, editing and deleting one, and the two ways to add
// stock (generate on the gateway, import upstream lines). Changes are audited.
import * as v from "valibot";
import { catalog } from "../../shared-data";
import { route } from "../define";
import { MonthUsage } from "../proxies";
import { PROXY_TYPES } from "../../catalog";
import { Count, DbDate, Int, listPage, looseSearch, pagingQuery } from "./common";
import { PROXY_STATUSES } from "./users";

const TAG = "Proxies";
const ADMIN = "/api/admin" as const;
const PROXY = { id: "The proxy's id." };

export const PROXY_EXITS = ["direct", "upstream"] as const;

/** A proxy as the console lists it (never a password), with its owner's e-mail and its exit. */
const adminProxyEntries = {
  id: v.string(),
  host: v.pipe(v.string(), v.description("The gateway's host customers connect to.")),
  port: Int,
  username: v.string(),
  type: v.picklist(PROXY_TYPES),
  country: v.string(),
  state: v.string(),
  city: v.string(),
  status: v.picklist(PROXY_STATUSES),
  assigned_to_user_id: v.string(),
  owner_email: v.string(),
  expires_at: DbDate,
  auto_renew: v.boolean(),
  created: DbDate,
  updated: DbDate,
  exit: v.picklist(PROXY_EXITS),
  bind_address: v.pipe(v.string(), v.description('For direct: the gateway machine\'s address it sends from ("" = the default).')),
  upstream_host: v.string(),
  upstream_port: Int,
  upstream_username: v.string(),
  upstream_has_password: v.boolean(),
  upstream_failed_at: v.pipe(
    v.nullable(v.string()),
    v.description('When the gateway last failed to reach the upstream ("" while it works).'),
  ),
  upstream_error: v.string(),
  bandwidth_quota_bytes: Count,
  max_connections: Count,
};
export const AdminProxy = v.object(adminProxyEntries);

const UsageTotals = v.object({ bytes_up: Count, bytes_down: Count, bytes: Count, connections: Count, failed_connections: Count });

/** One proxy for the edit form: the customer's password (never the upstream's) and its usage. */
export const AdminProxyDetail = v.object({
  ...adminProxyEntries,
  password: v.string(),
  usage: v.object({ month: MonthUsage, last_24h: UsageTotals }),
});

export const listInventory = route({
  id: "listInventory",
  method: "GET",
  path: "/proxies",
  base: ADMIN,
  tag: TAG,
  summary: "The proxy inventory, newest first",
  scope: "admin",
  query: v.object({
    search: looseSearch("In the host, username, upstream host, place or owner's e-mail (the first 200 characters)."),
    // Any case: the hook upper-cases before it checks (and says "type must be one of ...").
    type: v.optional(v.pipe(v.string(), v.description(`One of ${PROXY_TYPES.join(", ")}, in any case.`))),
    country: v.optional(v.string()),
    status: v.optional(v.pipe(v.string(), v.description(`One of ${PROXY_STATUSES.join(", ")}, in any case.`))),
    ...pagingQuery,
  }),
  response: listPage(AdminProxy),
  errors: [400],
});

export const getInventoryStats = route({
  id: "getInventoryStats",
  method: "GET",
  path: "/proxies/stats",
  base: ADMIN,
  tag: TAG,
  summary: "Proxies by status, type and country",
  scope: "admin",
  response: v.object({
    total: Count,
    available: Count,
    assigned: Count,
    expired: Count,
    maintenance: Count,
    by_type: v.record(v.string(), Count),
    by_country: v.record(v.string(), Count),
  }),
  errors: [],
});

export const listInventoryLocations = route({
  id: "listInventoryLocations",
  method: "GET",
  path: "/proxies/locations",
  base: ADMIN,
  tag: TAG,
  summary: "Every country (ISO code) with its name and the states and cities the shop lists",
  scope: "admin",
  response: v.record(v.string(), v.object({ name: v.string(), states: v.record(v.string(), v.array(v.string())) })),
  errors: [],
});

export const getInventoryProxy = route({
  id: "getInventoryProxy",
  method: "GET",
  path: "/proxies/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "One proxy with its customer password and usage",
  scope: "admin",
  params: PROXY,
  response: AdminProxyDetail,
  errors: [404],
});

const USERNAME = "Username may use visible ASCII characters except spaces and colons";
const username = (prefix: string) =>
  v.pipe(
    v.string(),
    v.maxLength(100, `${prefix}sername must be at most 100 characters`),
    v.metadata({ errorCode: "validation_invalid_username" }),
  );
const password = (prefix: string) =>
  v.pipe(
    v.string(),
    v.maxLength(255, `${prefix}assword must be at most 255 characters`),
    v.metadata({ errorCode: "validation_invalid_password" }),
  );
const limit = (max: number, message: string) =>
  v.pipe(
    v.number(message),
    v.integer(message),
    v.minValue(0, message),
    v.maxValue(max, message),
    v.metadata({ errorCode: "validation_invalid_number" }),
  );

export const updateInventoryProxy = route({
  id: "updateInventoryProxy",
  method: "PATCH",
  path: "/proxies/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "Edit a proxy",
  description: `The fields sent change (at least one); host and port are the gateway's and are refused. ${USERNAME}. upstream_password is sent only to replace the stored one. Audited proxies.update.`,
  scope: "admin",
  params: PROXY,
  body: v.pipe(
    v.object({
      username: v.optional(username("U")),
      password: v.optional(password("P")),
      status: v.optional(v.pipe(v.string(), v.description(`${PROXY_STATUSES.join(", ")} (any case).`))),
      exit: v.optional(v.pipe(v.string(), v.description("direct or upstream (any case)."))),
      bind_address: v.optional(v.pipe(v.string(), v.description('An IP address of the gateway\'s machine, or "".'))),
      upstream_host: v.optional(v.string()),
      upstream_port: v.optional(v.pipe(v.unknown(), v.description("A whole number from 1 to 65535 (or its digits as text)."))),
      upstream_username: v.optional(username("Upstream u")),
      upstream_password: v.optional(v.nullable(password("Upstream p"))),
      bandwidth_quota_gb: v.optional(limit(1_000_000, "Bandwidth quota must be a whole number of GB from 0 to 1,000,000 (0 = unlimited)")),
      bandwidth_quota_mb: v.optional(
        v.pipe(
          limit(1_024_000_000, "Bandwidth quota must be a whole number of MB from 0 to 1,024,000,000 (0 = unlimited)"),
          v.description("The quota in MB instead of GB (a 500 MB trial); send one of the two."),
        ),
      ),
      max_connections: v.optional(limit(100_000, "Max concurrent connections must be a whole number from 0 to 100,000 (0 = unlimited)")),
    }),
    v.examples([{ status: "MAINTENANCE", bandwidth_quota_gb: 50, max_connections: 20 }, { bandwidth_quota_mb: 500 }]),
  ),
  response: AdminProxyDetail,
  errors: [400, 403, 404, 409],
});

export const deleteInventoryProxy = route({
  id: "deleteInventoryProxy",
  method: "DELETE",
  path: "/proxies/{id}",
  base: ADMIN,
  tag: TAG,
  summary: "Delete a proxy",
  description: "Answers 204. Audited proxies.delete.",
  scope: "admin",
  params: PROXY,
  status: 204,
  response: v.pipe(v.undefined(), v.description("No content.")),
  errors: [403, 404, 409],
});

const QUANTITY = "Quantity must be a whole number";
const place = {
  state: v.optional(v.pipe(v.string(), v.maxLength(100, "State must be at most 100 characters"))),
  city: v.optional(v.pipe(v.string(), v.maxLength(100, "City must be at most 100 characters"))),
};

export const generateProxies = route({
  id: "generateProxies",
  method: "POST",
  path: "/proxies/generate",
  base: ADMIN,
  tag: TAG,
  summary: "Generate proxies on the shop's gateway",
  description: `Up to ${catalog.inventory.max_generate} a batch, in stock (AVAILABLE), exiting directly (spread over the gateway's bind addresses). type in any case; country an ISO code. Audited proxies.generate.`,
  scope: "admin",
  body: v.pipe(
    v.object({
      type: v.pipe(v.string(), v.description(`${PROXY_TYPES.join(", ")} (any case).`)),
      country: v.pipe(v.string("Country is required"), v.description("An ISO 3166-1 two-letter code.")),
      ...place,
      quantity: v.pipe(
        v.number(QUANTITY),
        v.integer(QUANTITY),
        v.minValue(1, "Quantity must be at least 1"),
        v.maxValue(catalog.inventory.max_generate, catalog.inventory.max_generate_message),
        v.metadata({ errorCode: "validation_invalid_number" }),
      ),
    }),
    v.examples([{ type: "DATACENTER", country: "DE", state: "Berlin", city: "Berlin", quantity: 5 }]),
  ),
  response: v.object({ generated_count: Count, message: v.string(), ids: v.array(v.string()) }),
  errors: [400, 403],
});

export const importProxies = route({
  id: "importProxies",
  method: "POST",
  path: "/proxies/import",
  base: ADMIN,
  tag: TAG,
  summary: "Import upstream proxies (host:port:username:password lines)",
  description:
    "Each valid line becomes a proxy on the gateway exiting through that upstream; bad, duplicate or already imported lines are skipped (listed). No valid line: 400 with data.skipped. Type default DATACENTER, country default Unknown. Audited proxies.import.",
  scope: "admin",
  body: v.pipe(
    v.object({
      text: v.pipe(
        v.string("Paste or upload host:port:username:password lines to import"),
        v.maxLength(3_000_000, "The import is too large: at most 10,000 lines"),
        v.description(`At most ${catalog.inventory.max_import_lines} lines.`),
      ),
      type: v.optional(v.pipe(v.string(), v.description(`${PROXY_TYPES.join(", ")} (any case); default DATACENTER.`))),
      country: v.optional(v.pipe(v.string(), v.description("An ISO code; default Unknown."))),
      ...place,
    }),
    v.examples([
      {
        text: "upstream-1.example.net:8080:user1:s3cretPass\nupstream-2.example.net:8080:user2:s3cretPass",
        type: "DATACENTER",
        country: "US",
      },
    ]),
  ),
  response: v.object({
    imported: Count,
    skipped: v.array(v.object({ line: Int, text: v.string(), reason: v.string() })),
    message: v.string(),
  }),
  errors: [400, 403],
});

export const inventoryRoutes = [
  listInventory,
  getInventoryStats,
  listInventoryLocations,
  getInventoryProxy,
  updateInventoryProxy,
  deleteInventoryProxy,
  generateProxies,
  importProxies,
];
