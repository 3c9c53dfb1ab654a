// The signed-in session of the browser: one store ($auth) over the PocketBase authStore
// (its token in localStorage, as the SDK keeps it), kept in sync with the HttpOnly session
// cookie the server-side guards read (src/middleware.ts). Page scripts cannot write that
// cookie: the server sets it at /auth/session after PocketBase confirmed the token
// (src/pages/auth/session.ts), and clears it there on sign-out.
import { atom } from "nanostores";
import { ClientResponseError, type RecordModel } from "pocketbase";
import { pb } from "@/lib/pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";

export type AuthStatus = "loading" | "signed-in" | "signed-out";

export interface AuthState {
  status: AuthStatus;
  user: UserRecord | null;
}

export const $auth = atom<AuthState>({ status: "loading", user: null });

let started = false;
let leaving = false;

/** True once sign-out has started navigating away (guards then don't redirect on their own). */
export function isSigningOut(): boolean {
  return leaving;
}

function publish(): void {
  const store = pb().authStore;
  const user = store.isValid && store.record?.collectionName === "users" ? (store.record as UserRecord) : null;
  $auth.set({ status: user ? "signed-in" : "signed-out", user });
}

const SESSION_ENDPOINT = "/auth/session";

/** The token of the users-collection session in the SDK's store, or "" when there is none. */
function currentToken(): string {
  const store = pb().authStore;
  return store.isValid && store.record?.collectionName === "users" ? store.token : "";
}

/**
 * The store token the session cookie was last written for ("" = cleared), or null while this
 * page does not know (at page start the cookie may hold anything: scripts cannot read it).
 */
let syncedFor: string | null = null;
let syncing: Promise<void> = Promise.resolve();

async function sessionRequest(method: "POST" | "DELETE", token?: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(SESSION_ENDPOINT, {
      method,
      credentials: "same-origin",
      cache: "no-store",
      // A sign-out followed at once by navigation still reaches the server.
      keepalive: method === "DELETE",
      // Always a JSON body: Astro's own origin check refuses a body-less DELETE.
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(token ? { token } : {}),
    });
  } catch (err) {
    throw new ClientResponseError({ url: SESSION_ENDPOINT, status: 0, originalError: err });
  }
  if (res.ok) return res;
  const data = (await res.json().catch(() => ({}))) as { message?: string };
  throw new ClientResponseError({
    url: res.url,
    status: res.status,
    response: { status: res.status, message: data.message ?? "", data: {} },
  });
}

/**
 * Brings the cookie in line with the store's current token. With `adopt` (once per page
 * start) the store takes the token PocketBase refreshed on the way, which keeps a long-lived
 * session alive; otherwise the store is left alone, so tabs sharing localStorage never
 * set each other off.
 */
async function syncOnce(adopt: boolean): Promise<void> {
  const token = currentToken();
  if (token === syncedFor) return;
  if (!token) {
    await sessionRequest("DELETE");
    syncedFor = "";
    return;
  }
  try {
    const session = (await (await sessionRequest("POST", token)).json()) as { token: string; record: UserRecord };
    syncedFor = token;
    if (adopt && pb().authStore.token === token) {
      syncedFor = session.token;
      pb().authStore.save(session.token, session.record);
    }
  } catch (err) {
    // Only a definite "this session is no longer valid" ends it; a network blip doesn't.
    if (err instanceof ClientResponseError && err.status === 401 && pb().authStore.token === token) {
      syncedFor = "";
      pb().authStore.clear();
    }
    throw err;
  }
}

function queueSync(adopt: boolean): Promise<void> {
  const run = syncing.then(() => syncOnce(adopt));
  syncing = run.catch(() => {});
  return run;
}

/**
 * Writes the session cookie for the store's current token (or clears it). Resolves once the
 * server answered, so a caller can navigate to an app page right after; rejects when the
 * session could not be saved.
 */
export function saveSessionCookie(): Promise<void> {
  return queueSync(false);
}

/**
 * Starts the session once per page: restores it from localStorage, shows it at once, then
 * has the server refresh the token with PocketBase and write it to the session cookie, so a
 * long-lived tab stays signed in and a revoked session ends. Safe to call from every island.
 */
export function startAuth(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  pb().authStore.onChange(() => {
    publish();
    void saveSessionCookie().catch(() => {});
  });
  publish();
  void queueSync(true).catch(() => {});
}

/** Adopts a session PocketBase just issued (sign-in, sign-up) and writes its cookie. */
export async function adoptSession(token: string, record: RecordModel): Promise<void> {
  startAuth();
  pb().authStore.save(token, record);
  await saveSessionCookie();
}

/** Reloads the signed-in user from PocketBase (e.g. after the e-mail was verified in another tab). */
export async function refreshSession(): Promise<void> {
  const client = pb();
  if (client.authStore.isValid) await client.collection("users").authRefresh({ requestKey: null });
}

/**
 * Confirms the token of an e-mailed verification link. Opened where nobody is signed in to
 * that account (another device, or the address's real owner after someone else signed up
 * with it), PocketBase ends every earlier session and answers a new one for this browser:
 * it is adopted and "signed-in" comes back. Otherwise "verified".
 */
export async function confirmVerification(token: string): Promise<"signed-in" | "verified"> {
  const answer = await pb().send<{ token?: string; record?: UserRecord } | null>("/api/collections/users/confirm-verification", {
    method: "POST",
    body: { token },
    requestKey: null,
  });
  if (answer?.token && answer.record) {
    await adoptSession(answer.token, answer.record);
    return "signed-in";
  }
  return "verified";
}

/** Mails a new e-mail verification link (it lands on /login?verify=…). */
export async function requestVerificationMail(email: string): Promise<void> {
  await pb().collection("users").requestVerification(email);
}

export async function signInWithPassword(email: string, password: string): Promise<void> {
  startAuth();
  await pb().collection("users").authWithPassword(email.trim().toLowerCase(), password);
  await saveSessionCookie();
}

/** Mails a one-time sign-in code; returns the id authWithOTP needs. */
export async function requestSignInCode(email: string): Promise<string> {
  const { otpId } = await pb().collection("users").requestOTP(email.trim().toLowerCase());
  return otpId;
}

export async function signInWithCode(otpId: string, code: string): Promise<void> {
  startAuth();
  await pb().collection("users").authWithOTP(otpId, code.trim());
  await saveSessionCookie();
}

/** Saves changes to the signed-in user's own record and publishes the new record. */
export async function updateOwnUser(
  data: Partial<Pick<UserRecord, "first_name" | "last_name" | "country" | "onboarding_completed" | "onboarding_completed_at">>,
): Promise<UserRecord> {
  const user = $auth.get().user;
  if (!user) throw new Error("Not signed in");
  const updated = await pb().collection("users").update(user.id, data);
  if (pb().authStore.token) pb().authStore.save(pb().authStore.token, updated);
  return updated;
}

/**
 * Changes the password: PocketBase checks the current one, then invalidates every
 * token of the account, so this browser signs in again with the new password.
 */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const user = $auth.get().user;
  if (!user) throw new Error("Not signed in");
  await pb().collection("users").update(user.id, {
    oldPassword: currentPassword,
    password: newPassword,
    passwordConfirm: newPassword,
  });
  await pb().collection("users").authWithPassword(user.email, newPassword);
  await saveSessionCookie();
}

/** Mails a link to /reset-password for an account that has no password of its own yet. */
export async function requestPasswordLink(email: string): Promise<void> {
  await pb().collection("users").requestPasswordReset(email);
}

export async function setPasswordWithToken(token: string, password: string): Promise<void> {
  await pb().collection("users").confirmPasswordReset(token, password, password);
}

/** Signs out: the store is cleared, the server clears the session cookie, then /login. */
export function signOut(): void {
  leaving = true;
  startAuth();
  pb().authStore.clear();
  // Wait for the cookie to be cleared (bounded: a dead network must not trap the visitor).
  const timeout = new Promise<void>((resolve) => window.setTimeout(resolve, 3000));
  void Promise.race([saveSessionCookie().catch(() => {}), timeout]).then(() => window.location.replace("/login"));
}
