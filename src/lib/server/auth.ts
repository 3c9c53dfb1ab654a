// Server-side session check for the guards in src/middleware.ts. The browser keeps the
// `pb_auth` cookie in sync with its PocketBase authStore (src/stores/auth.ts); here the
// token in it is verified by PocketBase itself (auth-refresh answers only for a valid,
// unrevoked token of the users collection). Unverified JWT claims are never trusted.
import PocketBase, { ClientResponseError } from "pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { AUTH_COOKIE, REF_COOKIE } from "@/lib/cookies";
import { pocketbaseUrl } from "@/lib/server/config";

/**
 * PocketBase could not answer whether the session is valid (rate limited, down, erroring).
 * The visitor is not signed out for that: the middleware shows an error page instead.
 */
export class SessionCheckUnavailable extends Error {
  constructor(readonly status: number) {
    super(`The session check failed with status ${status}`);
  }
}

/** Answers that mean "this token is not a valid session" (bad, expired, revoked, user gone). */
const SIGNED_OUT_STATUSES = new Set([400, 401, 403, 404]);

/**
 * The signed-in user for this request's cookie, or null when there is no valid session.
 * Throws SessionCheckUnavailable when PocketBase cannot tell (429, 5xx, unreachable).
 */
export async function verifySession(cookieHeader: string, clientIp?: string): Promise<UserRecord | null> {
  if (!cookieHeader.includes(`${AUTH_COOKIE}=`)) return null;
  const pb = new PocketBase(pocketbaseUrl());
  pb.authStore.loadFromCookie(cookieHeader, AUTH_COOKIE);
  if (!pb.authStore.isValid) return null;
  try {
    const { record } = await pb.collection("users").authRefresh<UserRecord>({
      requestKey: null,
      // PocketBase trusts this header from loopback; rate limits then count the visitor, not us.
      ...(clientIp ? { headers: { "X-Forwarded-For": clientIp } } : {}),
    });
    return record;
  } catch (err) {
    if (err instanceof ClientResponseError && SIGNED_OUT_STATUSES.has(err.status)) return null;
    throw new SessionCheckUnavailable(err instanceof ClientResponseError ? err.status : 0);
  }
}

/** Console pages open to visitors: admin registration by invitation (checked by its route). */
const OPEN_CONSOLE_PATHS = new Set(["/console/register"]);

/** A path the guards protect: every signed-in route (spec 2.1). */
export function isAppPath(pathname: string): boolean {
  if (OPEN_CONSOLE_PATHS.has(pathname.replace(/\/$/, ""))) return false;
  return ["/dashboard", "/console", "/onboarding"].some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export type GuardDecision = { redirect: string } | { allow: true };

/** Where a request for `pathname` goes, given who is signed in (spec 2.1 guard behaviour). */
export function guard(pathname: string, search: string, user: UserRecord | null): GuardDecision {
  if (!user) return { redirect: `/login?next=${encodeURIComponent(pathname + search)}` };
  if ((pathname === "/console" || pathname.startsWith("/console/")) && !user.is_admin) return { redirect: "/dashboard" };
  if ((pathname === "/dashboard" || pathname === "/dashboard/") && !user.onboarding_completed) return { redirect: "/onboarding" };
  return { allow: true };
}

// --- affiliate code from ?ref= ----------------------------------------------------------

const REF_MAX_AGE = 30 * 24 * 3600;

/** The Set-Cookie value remembering a valid ?ref= code for 30 days, or null. */
export function referralCookie(url: URL): string | null {
  const code = url.searchParams.get("ref");
  if (!code || !/^[A-Za-z0-9_-]{1,32}$/.test(code)) return null;
  const secure = url.protocol === "https:" ? "; Secure" : "";
  return `${REF_COOKIE}=${code}; Max-Age=${REF_MAX_AGE}; Path=/; SameSite=Lax${secure}`;
}
