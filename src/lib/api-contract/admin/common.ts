// What the console's routes (/api/admin, /api/shop) share: PocketBase's dates and error
// answer, the paging of every list (pb_hooks/lib/core/admin.js: paging, searchParam,
// listPage) and a person's columns as the lists join them.
import * as v from "valibot";

/** A date as PocketBase stores it; "" when not set. */
export const DbDate = v.pipe(v.string(), v.description('UTC as the shop stores it ("2026-11-27 12:40:27.007Z"); "" when not set.'));
export const Int = v.pipe(v.number(), v.integer());
export const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A percentage with one decimal, or null when there is nothing to divide by. */
export const Percent = v.nullable(v.number());

/** PocketBase's error answer: what failed, and per field of the request what is wrong with it. */
export const AdminError = v.pipe(
  v.object({
    status: Int,
    message: v.pipe(v.string(), v.description("What went wrong, as the console shows it.")),
    data: v.pipe(
      v.record(v.string(), v.unknown()),
      v.description("Per field of the request: {code, message}. An import without a valid line adds `skipped`."),
    ),
  }),
  v.title("Error"),
);

/** `page` and `perPage` of every list (perPage at most 100, default 20). */
export const pagingQuery = {
  // No bounds here: the hooks clamp a page under 1 or a perPage over the route's most to it.
  page: v.optional(v.pipe(v.number(), v.integer(), v.description("The page, from 1 (default 1)."))),
  perPage: v.optional(v.pipe(v.number(), v.integer(), v.description("Rows a page, 1-100 (default 20; more is cut to 100)."))),
};

/** The query of a list that takes nothing but its page. */
export const PagingQuery = v.object(pagingQuery);

/** The `search` of the lists that refuse a longer one (admin.js searchParam). */
export const searchQuery = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(200, "Search text must be at most 200 characters."),
    v.metadata({ errorCode: "validation_invalid_value" }),
    v.description("Words to look for (at most 200 characters)."),
  ),
);

/** A search the list cuts to its length rather than refusing. */
export const looseSearch = (what: string) => v.optional(v.pipe(v.string(), v.description(what)));

/** The fields of a page of a list, in PocketBase's shape (spread them to add a list's own). */
export function pageEntries<T extends v.GenericSchema>(item: T) {
  return { items: v.array(item), page: Int, perPage: Int, totalItems: Count, totalPages: Count };
}

/** A page of a list, in PocketBase's shape. */
export const listPage = <T extends v.GenericSchema>(item: T) => v.object(pageEntries(item));

/** A person a row names: `prefix_email`, `prefix_first_name`, `prefix_last_name` (sql.js personShape). */
export function person<P extends string>(prefix: P) {
  return {
    [`${prefix}_email`]: v.string(),
    [`${prefix}_first_name`]: v.string(),
    [`${prefix}_last_name`]: v.string(),
  } as Record<`${P}_email` | `${P}_first_name` | `${P}_last_name`, v.StringSchema<undefined>>;
}

/** The user a tool answers: the row as User Management lists it (user-admin.js userView). */
export const AdminUser = v.object({
  id: v.string(),
  email: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  country: v.string(),
  balance_cents: Int,
  is_admin: v.boolean(),
  verified: v.boolean(),
  suspended: v.pipe(v.boolean(), v.description("Sessions ended, sign-in refused.")),
  deleted: v.pipe(v.boolean(), v.description("Deleted on request: personal data erased, the row kept for the ledger.")),
  created: DbDate,
});

/** A session: what signing in answers ({token, record}), as PocketBase's auth routes do. */
export const AuthAnswer = v.object({
  token: v.string(),
  record: v.pipe(
    v.looseObject({
      id: v.string(),
      collectionId: v.string(),
      collectionName: v.literal("users"),
      email: v.string(),
      verified: v.boolean(),
      is_admin: v.boolean(),
    }),
    v.description("The signed-in user's record (the users collection)."),
  ),
});
