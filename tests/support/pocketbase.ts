// A real PocketBase on a fresh temporary data dir, for API tests.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import PocketBase, { ClientResponseError } from "pocketbase";
import { freePort } from "../../server/free-port.ts";
import { newCredentialsKey, startPocketBase, type PocketBaseProcess } from "../../server/pocketbase-process.ts";
import { FORWARDING_SECRET_HEADER } from "../../src/lib/server/config.ts";

export { freePort };

export const SUPERUSER = { email: "superuser@test.local", password: "Superuser#Test2026" };

export interface TestPocketBase {
  url: string;
  dataDir: string;
  process: PocketBaseProcess;
  /** A fresh client with no auth. */
  client(): PocketBase;
  /** A fresh client signed in as the superuser. */
  superuser(): Promise<PocketBase>;
  stop(): Promise<void>;
}

/**
 * Test runs sign in (superuser included: `*:auth`) and write many times from 127.0.0.1,
 * and no address is exempt from the rate limiter, so test PocketBases get every default
 * limit multiplied by 100 (SHOP_RATE_LIMIT_SCALE, a test-only knob).
 */
export const TEST_RATE_LIMIT_ENV: Readonly<Record<string, string>> = { SHOP_RATE_LIMIT_SCALE: "100" };

/**
 * For tests that prove the limiter: the real default limits (scale 1), whatever the
 * caller's shell exports. Add SHOP_AUTH_RATE_LIMIT after it to test that override.
 */
/**
 * Test PocketBases buy credits with the labelled test provider (no money moves), which runs
 * only when PAYMENTS_TEST_MODE=true and Stripe is not configured. Pass
 * `PAYMENTS_TEST_MODE: ""` to see the shop without any payment provider.
 */
export const TEST_PAYMENTS_ENV: Readonly<Record<string, string>> = { PAYMENTS_TEST_MODE: "true" };

export const REAL_RATE_LIMITS: Readonly<Record<string, string>> = { SHOP_RATE_LIMIT_SCALE: "1", SHOP_AUTH_RATE_LIMIT: "" };

/** The key that encrypts proxy passwords in test PocketBases (a new one each test run). */
export const TEST_CREDENTIALS_KEY = newCredentialsKey();

export interface TestPocketBaseOptions {
  /** A data dir of the caller's (e.g. a restored one), kept on stop; default: a new temporary one, removed on stop. */
  dataDir?: string;
  /** Another migrations directory (tests of a migration start from the ones before it). */
  migrationsDir?: string;
}

/**
 * `env` is added to (and overrides) TEST_RATE_LIMIT_ENV, TEST_PAYMENTS_ENV, SHOP_CREDENTIALS_KEY =
 * TEST_CREDENTIALS_KEY and the runner's environment.
 */
export async function startTestPocketBase(env: Record<string, string> = {}, options: TestPocketBaseOptions = {}): Promise<TestPocketBase> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "proxyshop-test-pb-"));
  const process = await startPocketBase({
    dataDir,
    port: await freePort(),
    superuserEmail: SUPERUSER.email,
    superuserPassword: SUPERUSER.password,
    env: { ...TEST_RATE_LIMIT_ENV, ...TEST_PAYMENTS_ENV, SHOP_CREDENTIALS_KEY: TEST_CREDENTIALS_KEY, ...env },
    ...(options.migrationsDir ? { migrationsDir: options.migrationsDir } : {}),
  });
  const client = () => {
    const pb = new PocketBase(process.url);
    pb.autoCancellation(false);
    return pb;
  };
  return {
    url: process.url,
    dataDir,
    process,
    client,
    async superuser() {
      const pb = client();
      await pb.collection("_superusers").authWithPassword(SUPERUSER.email, SUPERUSER.password);
      return pb;
    },
    async stop() {
      await process.stop();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- Fixtures for API tests ------------------------------------------------------

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

let userCounter = 0;

/** Creates a users record as the superuser (sign-up has its own route). */
export async function createTestUser(
  su: PocketBase,
  fields: {
    is_admin?: boolean;
    first_name?: string;
    last_name?: string;
    country?: string;
    email?: string;
    password?: string;
    onboarding_completed?: boolean;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const email = fields.email ?? `user${userCounter}-${Date.now()}@test.local`;
  const password = fields.password ?? `Passw0rd#${userCounter}${Date.now()}`;
  const record = await su.collection("users").create({
    email,
    password,
    passwordConfirm: password,
    verified: true,
    first_name: fields.first_name ?? "Test",
    last_name: fields.last_name ?? "User",
    country: fields.country ?? "Canada",
    is_admin: fields.is_admin ?? false,
    onboarding_completed: fields.onboarding_completed ?? false,
  });
  return { id: record.id, email, password };
}

/**
 * Headers that make `tpb` count a request as coming from `ip`, as the web server's do: the
 * X-Forwarded-For and the secret PocketBase was started with (pocketbase/forwarded.go);
 * without the secret PocketBase believes no forwarded address.
 */
export function forwardedFrom(tpb: TestPocketBase, ip: string): Record<string, string> {
  return { "X-Forwarded-For": ip, [FORWARDING_SECRET_HEADER]: tpb.process.forwardingSecret };
}

/** A client that comes from `ip` as the web server would forward it (forwardedFrom). */
export function clientFrom(tpb: TestPocketBase, ip: string): PocketBase {
  const pb = tpb.client();
  pb.beforeSend = (url, options) => {
    options.headers = { ...(options.headers as Record<string, string>), ...forwardedFrom(tpb, ip) };
    return { url, options };
  };
  return pb;
}

/** A client signed in as `user` with their password. */
export async function signIn(tpb: TestPocketBase, user: { email: string; password: string }): Promise<PocketBase> {
  const pb = tpb.client();
  await pb.collection("users").authWithPassword(user.email, user.password);
  return pb;
}

// ---- Outcomes of API calls -------------------------------------------------------

/** The ClientResponseError `run` fails with; throws if it succeeds or fails otherwise. */
export async function errorOf(run: () => Promise<unknown>): Promise<ClientResponseError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ClientResponseError) return err;
    throw err;
  }
  throw new Error("expected the request to fail");
}

/**
 * The per-field errors of a failed request: `errors` of the developer API's problem details
 * (/api/v1), else PocketBase's `data` (other routes).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function fieldErrorsOf(err: ClientResponseError): Record<string, any> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (err.response["errors"] ?? err.response["data"] ?? {}) as Record<string, any>;
}

/** The HTTP status of `run`: 200 when it succeeds (whatever 2xx), else the error's status. */
export async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (err) {
    if (err instanceof ClientResponseError) return err.status;
    throw err;
  }
}
