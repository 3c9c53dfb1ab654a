// The shape of an access matrix row (access-specs.ts): per collection, how to make a row of
// A or B, what each caller may send, and the status each caller gets for each operation.
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
