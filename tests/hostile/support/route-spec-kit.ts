// The vocabulary of the hostile fuzz suite's route specs (route-specs.ts assembles them):
// who may call a route, what a spec says of it, and the values several specs draw from.
import fc from "fast-check";
import { hostileString } from "./arbitraries.ts";

export const PACKAGE_IDS = ["package-10", "package-25", "package-50", "package-100"];

export type Who = "public" | "customer" | "verified" | "admin" | "superuser" | "stripe";

export interface RouteSpec {
  who: Who;
  /** GET routes: any answer but a 5xx; they must not change anything either. */
  read?: boolean;
  /** The route answers text/plain unless asked for JSON (a 2xx need not be JSON). */
  plainText?: boolean;
  keyed?: boolean;
  /** The route parses the body (so a body that is not a JSON object is refused). */
  readsBody?: boolean;
  /** For `{id}` routes: ids an allowed caller could act on, and ids that are never theirs. */
  ids?: () => { mine: string[]; notMine: string[] };
  /** A plausible body (it may be valid: only sent beside another defect). */
  body?: () => fc.Arbitrary<Record<string, unknown>>;
  /** Field values each sure to be refused. */
  poisons?: () => Record<string, fc.Arbitrary<unknown>>;
  query?: () => Record<string, fc.Arbitrary<string>>;
}

export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom("-1", "0", "1e400", "NaN", "99999999999999999999999", "1.5", "", "[]", "{}", "%", "%25", "\\"),
);
export const pageQuery = () => ({ page: hostileQueryValue, perPage: hostileQueryValue });

export const wholeCents = fc.integer({ min: 1, max: 5_000 });
export const someText = fc.string({ minLength: 12, maxLength: 60 }).map((s) => `Hostile ${s}`);
