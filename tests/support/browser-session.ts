// A browser signed in as the app leaves it after a sign-in: the HttpOnly `pb_auth` cookie
// the server sets (the bare token, src/pages/auth/session.ts) and the PocketBase SDK's own
// copy in localStorage. For e2e specs and the browser benchmarks that skip the sign-in form.
import type { BrowserContext } from "@playwright/test";
import PocketBase, { type RecordModel } from "pocketbase";

export interface BrowserSession {
  /** The session token: also the `pb_auth` cookie's value. */
  token: string;
  record: RecordModel;
}

/** Signs `email` in with PocketBase directly (`pocketbaseUrl` or the shop's public URL). */
export async function sessionFor(pocketbaseUrl: string, email: string, password: string): Promise<BrowserSession> {
  const pb = new PocketBase(pocketbaseUrl);
  await pb.collection("users").authWithPassword(email, password);
  return { token: pb.authStore.token, record: pb.authStore.record as RecordModel };
}

/** Puts `session` into `context` for `baseUrl`: the session cookie and the SDK's stored session. */
export async function signInContext(context: BrowserContext, baseUrl: string, session: BrowserSession): Promise<void> {
  await context.addCookies([{ name: "pb_auth", value: session.token, url: baseUrl, httpOnly: true, sameSite: "Lax" }]);
  await context.addInitScript((stored: string) => {
    if (!window.localStorage.getItem("pocketbase_auth")) window.localStorage.setItem("pocketbase_auth", stored);
  }, JSON.stringify(session));
}
