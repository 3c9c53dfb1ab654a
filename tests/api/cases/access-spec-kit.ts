// The shape of an access matrix row (access-specs.ts): per collection, how to make a row of
// A or B, what each caller may send, and the status each caller gets for each operation; and
// the cells many rows share (who sees whose rows, who writes them).
import type { Context, Owner, Who } from "./access-rows.ts";

export interface CollectionSpec {
  name: string;
  /** Creates (as superuser) or finds a row that belongs to `owner`; returns its id. */
  make(ctx: Context, owner: Owner): Promise<string>;
  /** The body `who` sends when trying to create a row. Must contain a unique `marker` value. */
  createBody(ctx: Context, who: Who, marker: string): Promise<Record<string, unknown>>;
  /** Filter that finds rows created with `marker`. */
  markerFilter(marker: string): string;
  updateBody(marker: string): Record<string, unknown>;
  /** Which of the rows of A and B each caller sees in a list. */
  list: Record<Who, Owner[]>;
  /** Expected status of view/update/delete of A's row and of create, per caller. */
  view: Record<Who, number>;
  create: Record<Who, number>;
  update: Record<Who, number>;
  delete: Record<Who, number>;
}

export const ALL = (status: number): Record<Who, number> => ({ anon: status, A: status, B: status, admin: status });

/** `status` for the admin, 404 (the rule hides the row) for everybody else. */
export const ADMIN_ONLY = (status: number): Record<Who, number> => ({ anon: 404, A: 404, B: 404, admin: status });

/** Rows of one customer: each sees only their own, the admin sees every one. */
export const OWN_ROWS: Pick<CollectionSpec, "list" | "view"> = {
  list: { anon: [], A: ["A"], B: ["B"], admin: ["A", "B"] },
  view: { anon: 404, A: 200, B: 404, admin: 200 },
};

/** Rows only the admin reads: hidden from customers and anonymous visitors. */
export const ADMIN_ROWS: Pick<CollectionSpec, "list" | "view"> = {
  list: { anon: [], A: [], B: [], admin: ["A", "B"] },
  view: ADMIN_ONLY(200),
};

/** Only the server writes these rows (hooks and routes): the records API refuses every write. */
export const SERVER_WRITES: Pick<CollectionSpec, "create" | "update" | "delete"> = {
  create: ALL(403),
  update: ALL(403),
  delete: ALL(403),
};

/** Only the admin writes through the records API: the create rule fails for the others (400), and their edits find nothing. */
export const ADMIN_WRITES: Pick<CollectionSpec, "create" | "update" | "delete"> = {
  create: { anon: 400, A: 400, B: 400, admin: 200 },
  update: ADMIN_ONLY(200),
  delete: ADMIN_ONLY(204),
};

/** The user id `who` puts in a body: their own; anonymous callers claim A's. */
export const claimedId = (ctx: Context, who: Who): string => ctx.users[who === "anon" ? "A" : who].id;
