// The session cookie, written only here (HttpOnly: page scripts cannot read or forge it).
// The browser's auth store (src/stores/auth.ts) calls it with the PocketBase SDK's token:
//   POST   {token}  PocketBase refreshes the token (so it checks it); the fresh token goes
//                   into the cookie and back to the store, with the user record.
//   DELETE          clears the cookie (sign-out, expired or revoked session).
// Only pages of this site may call it (Origin / Sec-Fetch-Site check against CSRF).
import type { APIRoute } from "astro";
import {
  clearedSessionCookie,
  isSameOriginRequest,
  isSecureRequest,
  refreshAuth,
  SessionCheckUnavailable,
  sessionCookie,
} from "@/lib/server/auth";

/** A PocketBase token is a few hundred bytes; anything far larger is not one. */
const MAX_BODY_BYTES = 8 * 1024;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  });
}

const refuse = (status: number, message: string, headers: Record<string, string> = {}) => json(status, { status, message }, headers);

function clientIp(clientAddress: () => string): string | undefined {
  try {
    return clientAddress();
  } catch {
    return undefined;
  }
}

async function tokenFrom(request: Request): Promise<string | null> {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) return null;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return null;
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return null;
  try {
    const body = JSON.parse(text) as { token?: unknown };
    return typeof body.token === "string" && body.token.length > 0 ? body.token : null;
  } catch {
    return null;
  }
}

export const POST: APIRoute = async (context) => {
  const { request } = context;
  if (!isSameOriginRequest(request)) return refuse(403, "Cross-site requests cannot start a session.");
  const secure = isSecureRequest(request);
  const token = await tokenFrom(request);
  if (!token) return refuse(400, 'Send {"token": "..."} as JSON.');
  try {
    const session = await refreshAuth(
      token,
      clientIp(() => context.clientAddress),
    );
    if (!session) {
      return refuse(401, "Your session has ended. Please sign in again.", { "Set-Cookie": clearedSessionCookie(secure) });
    }
    return json(200, session, { "Set-Cookie": sessionCookie(session.token, secure) });
  } catch (err) {
    if (!(err instanceof SessionCheckUnavailable)) throw err;
    const status = err.status === 429 ? 429 : 503;
    return refuse(status, "We could not confirm your session just now. Please try again in a moment.", { "Retry-After": "5" });
  }
};

export const DELETE: APIRoute = ({ request }) => {
  if (!isSameOriginRequest(request)) return refuse(403, "Cross-site requests cannot end a session.");
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": clearedSessionCookie(isSecureRequest(request)), "Cache-Control": "no-store" },
  });
};

/** Anything else (GET included) changes nothing. */
export const ALL: APIRoute = () => refuse(405, "Use POST to start a session or DELETE to end it.", { Allow: "POST, DELETE" });
