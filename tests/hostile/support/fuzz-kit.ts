// The hostile fuzz suite's shared state and its way of sending: fuzz.test.ts's beforeAll
// fills `fuzz` (the shop, callers' tokens, the collections and what each caller may see),
// the generators in route-specs, route-requests, record-writes and record-reads read it.
import fc from "fast-check";
import { forwardedFrom, type TestPocketBase } from "../../support/pocketbase.ts";
import type { RawBody } from "./arbitraries.ts";
import { changedTables, type DbSnapshotter } from "./db-snapshot.ts";
import type { HostileShop } from "./fixtures.ts";
import { describeRequest, errorBodyProblems, refusalProblems, sendRaw, type HostileRequest, type HostileResponse } from "./http.ts";

export const FULL = process.env["HOSTILE_PROFILE"] === "full";
export const SEED = Number(process.env["HOSTILE_SEED"] ?? 8_2026_1123);
export const REPLAY_PATH = process.env["HOSTILE_PATH"];

export const runs = (short: number, full: number): number => (FULL ? full : short);

export type Caller = "anon" | "customer" | "unverified" | "admin" | "superuser";
export const PEOPLE: Caller[] = ["anon", "customer", "unverified", "admin"];

export type Op = "create" | "update" | "delete";

export interface CollectionInfo {
  name: string;
  rules: Record<Op, string | null>;
}

export interface FuzzState {
  tpb: TestPocketBase;
  hs: HostileShop;
  db: DbSnapshotter;
  tokens: Record<Caller, string>;
  collections: CollectionInfo[];
  /** Per caller, the ids of each collection's rows they may see. */
  visible: Record<Caller, Map<string, Set<string>>>;
  sent: number;
}

export const fuzz = { collections: [], sent: 0 } as unknown as FuzzState;

/** encodeURIComponent that also takes lone surrogates (as U+FFFD). */
export const enc = (s: string): string => encodeURIComponent(s.toWellFormed());

// ---- Sending one request and checking what it did ------------------------------------

export interface Draft {
  target: string;
  method: string;
  path: string;
  query?: Record<string, string>;
  caller: Caller;
  ip: string;
  headers?: Record<string, string>;
  /** A JSON value (serialised here) or a raw body with its content type. */
  json?: unknown;
  raw?: RawBody;
}

export function build(d: Draft): HostileRequest {
  const headers: Record<string, string> = { ...forwardedFrom(fuzz.tpb, d.ip), ...(d.headers ?? {}) };
  if (d.caller !== "anon") headers["Authorization"] = fuzz.tokens[d.caller];
  let body: string | undefined;
  if (d.raw) {
    body = d.raw.body;
    if (d.raw.contentType) headers["Content-Type"] = d.raw.contentType;
  } else if (d.json !== undefined) {
    body = JSON.stringify(d.json);
    headers["Content-Type"] = "application/json";
  }
  const query = d.query && Object.keys(d.query).length > 0 ? `?${new URLSearchParams(d.query).toString()}` : "";
  return { method: d.method, url: d.path + query, headers, ...(body !== undefined ? { body } : {}), target: `${d.target} as ${d.caller}` };
}

/** Sends one request and fails when it changed any row of the database. */
export async function sendAndCompare(req: HostileRequest): Promise<HostileResponse> {
  const before = await fuzz.db.take();
  const res = await sendRaw(fuzz.tpb.url, req);
  fuzz.sent += 1;
  const after = await fuzz.db.take();
  const changed = changedTables(before, after);
  if (changed.length > 0) {
    throw new Error(`${describeRequest(req)}\n-> ${res.status} ${res.text.slice(0, 300)}\nchanged rows in: ${changed.join(", ")}`);
  }
  return res;
}

export function fail(req: HostileRequest, res: HostileResponse, problems: string[]): never {
  throw new Error(`${describeRequest(req)}\n-> ${res.status} ${res.text.slice(0, 400)}\n${problems.join("\n")}`);
}

export async function expectRefused(req: HostileRequest, custom: boolean): Promise<void> {
  const res = await sendAndCompare(req);
  const problems = refusalProblems(res, { custom });
  if (problems.length > 0) fail(req, res, problems);
}

export async function expectCalmRead(
  req: HostileRequest,
  custom: boolean,
  extra?: (res: HostileResponse) => string[],
  plainText = false,
): Promise<void> {
  const res = await sendAndCompare(req);
  const problems = res.status >= 500 ? [`a ${res.status}`] : [...errorBodyProblems(res, { custom })];
  if (res.status < 300 && res.text && res.json === undefined && !plainText) problems.push("a 2xx answer that is not JSON");
  if (extra) problems.push(...extra(res));
  if (problems.length > 0) fail(req, res, problems);
}

export async function check(arb: fc.Arbitrary<() => Promise<void>>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(arb, (run) => run()),
    { seed: SEED, numRuns, ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}), endOnFailure: false },
  );
}
