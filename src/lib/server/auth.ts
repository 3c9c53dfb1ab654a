// Server-side sessions. The `pb_auth` cookie is written only by the server
// (src/pages/auth/session.ts, HttpOnly: page scripts cannot read it), after PocketBase
// itself confirmed the token; the guards in src/middleware.ts read it and have PocketBase
// verify it again (auth-refresh answers only for a valid, unrevoked token of the users
// collection). Unverified JWT claims are never trusted.
import PocketBase, { ClientResponseError, cookieParse, getTokenPayload, isTokenExpired } from "pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { AUTH_COOKIE, REF_COOKIE } from "@/lib/cookies";
import { forwardedFor, pocketbaseUrl } from "@/lib/server/config";

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

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The JWT's `exp` (seconds), unverified: only for cookie lifetimes, never for trust. */
export function tokenExpiry(token: string): number {
  const { exp } = getTokenPayload(token);
  return typeof exp === "number" ? exp : 0;
}

/**
 * Whose session a PocketBase token is (its `id` and `collectionId` claims), unverified:
 * only to match a token to the user PocketBase just verified it as, never for trust.
 */
export function tokenOwner(token: string): { id: string; collectionId: string } {
  const { id, collectionId } = getTokenPayload(token);
  return { id: typeof id === "string" ? id : "", collectionId: typeof collectionId === "string" ? collectionId : "" };
}

/**
 * The token in the session cookie, or "". The cookie holds the bare token; a cookie from
 * before it was HttpOnly holds the SDK's JSON ({token, record}) and is still read, until
 * the browser's next page replaces it.
 */
export function sessionToken(cookieHeader: string): string {
  const cookies: Record<string, string | undefined> = cookieParse(cookieHeader);
  let value = cookies[AUTH_COOKIE] ?? "";
  if (!JWT.test(value)) {
    try {
      const legacy = JSON.parse(value) as { token?: unknown };
      value = typeof legacy.token === "string" ? legacy.token : "";
    } catch {
      return "";
    }
  }
  return JWT.test(value) && !isTokenExpired(value) ? value : "";
}

/**
 * Has PocketBase refresh `token`: a new token and the user for a valid session, null when
 * the token is not one. Throws SessionCheckUnavailable when PocketBase cannot tell.
 */
export async function refreshAuth(token: string, clientIp?: string): Promise<{ token: string; record: UserRecord } | null> {
  const pb = new PocketBase(pocketbaseUrl());
  pb.authStore.save(token, null);
  try {
    const { token: fresh, record } = await pb.collection("users").authRefresh<UserRecord>({
      requestKey: null,
      // PocketBase believes this header beside the web server's secret (config.ts); rate
      // limits then count the visitor, not us.
      ...(clientIp ? { headers: forwardedFor(clientIp) } : {}),
    });
    return { token: fresh, record };
  } catch (err) {
    if (err instanceof ClientResponseError && SIGNED_OUT_STATUSES.has(err.status)) return null;
    throw new SessionCheckUnavailable(err instanceof ClientResponseError ? err.status : 0);
  }
}

/**
 * The signed-in user for this request's cookie, or null when there is no valid session.
 * Throws SessionCheckUnavailable when PocketBase cannot tell (429, 5xx, unreachable).
 */
export async function verifySession(cookieHeader: string, clientIp?: string): Promise<UserRecord | null> {
  const token = sessionToken(cookieHeader);
  if (!token) return null;
  return (await refreshAuth(token, clientIp))?.record ?? null;
}

// --- the session cookie and its endpoint ------------------------------------------------

/**
 * True when the visitor reached us over TLS. The web server (server/web-server.ts) sets
 * X-Forwarded-Proto on every request it hands to Astro, from the socket or from a trusted
 * proxy, and drops whatever the client sent.
 */
export function isSecureRequest(request: Request): boolean {
  return request.headers.get("x-forwarded-proto") === "https";
}

/** Set-Cookie for the session: HttpOnly, SameSite=Lax, Secure behind TLS, living as long as the token. */
export function sessionCookie(token: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor(tokenExpiry(token) - Date.now() / 1000));
  return `${AUTH_COOKIE}=${token}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${AUTH_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/**
 * CSRF guard for the endpoints that set or clear cookies: only a page of this site may call
 * them. Browsers say where a request comes from in Sec-Fetch-Site (unforgeable by pages);
 * without it, the Origin must name this host. A request carrying neither is refused.
 */
export function isSameOriginRequest(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  // The Host we were asked for, or the one a trusted proxy forwarded (the web server drops
  // X-Forwarded-Host from anyone else).
  const hosts = [request.headers.get("host"), request.headers.get("x-forwarded-host")?.split(",").pop()]
    .filter((h): h is string => Boolean(h))
    .map((h) => h.trim().toLowerCase());
  return hosts.includes(originHost);
}

/** Console pages open to visitors: admin registration by invitation and the first admin's setup (checked by their routes). */
const OPEN_CONSOLE_PATHS = new Set(["/console/register", "/console/setup"]);

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

/**
 * The Set-Cookie value remembering a valid ?ref= code for 30 days, or null. SameSite=Lax,
 * Secure behind TLS; not HttpOnly: the sign-up form reads it, and the code is no secret
 * (it is printed in the affiliate's public link).
 */
export function referralCookie(url: URL, secure = url.protocol === "https:"): string | null {
  const code = url.searchParams.get("ref");
  if (!code || !/^[A-Za-z0-9_-]{1,32}$/.test(code)) return null;
  return `${REF_COOKIE}=${code}; Max-Age=${REF_MAX_AGE}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}
