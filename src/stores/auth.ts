// The signed-in session of the browser: one store ($auth) over the PocketBase authStore,
// kept in sync with the `pb_auth` cookie the server-side guards read (src/middleware.ts).
import { atom } from "nanostores";
import { ClientResponseError } from "pocketbase";
import { AUTH_COOKIE } from "@/lib/cookies";
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

function writeCookie(): void {
  document.cookie = pb().authStore.exportToCookie(
    { httpOnly: false, secure: window.location.protocol === "https:", sameSite: "Lax", path: "/" },
    AUTH_COOKIE,
  );
}

function publish(): void {
  const store = pb().authStore;
  const user = store.isValid && store.record?.collectionName === "users" ? (store.record as UserRecord) : null;
  $auth.set({ status: user ? "signed-in" : "signed-out", user });
}

/**
 * Starts the session once per page: restores it (localStorage, else the cookie), shows
 * it at once, then refreshes the token with PocketBase so a long-lived tab stays signed
 * in and a revoked session ends. Safe to call from every island.
 */
export function startAuth(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  const client = pb();
  if (!client.authStore.isValid) client.authStore.loadFromCookie(document.cookie, AUTH_COOKIE);
  client.authStore.onChange(() => {
    writeCookie();
    publish();
  });
  writeCookie();
  publish();
  if (client.authStore.isValid && client.authStore.record?.collectionName === "users") {
    client
      .collection("users")
      .authRefresh({ requestKey: null })
      .catch((err: unknown) => {
        // Only a definite "this session is no longer valid" ends it; a network blip doesn't.
        if (err instanceof ClientResponseError && [401, 403, 404].includes(err.status)) client.authStore.clear();
      });
  }
}

/** Reloads the signed-in user from PocketBase (e.g. after the e-mail was verified in another tab). */
export async function refreshSession(): Promise<void> {
  const client = pb();
  if (client.authStore.isValid) await client.collection("users").authRefresh({ requestKey: null });
}

/** Mails a new e-mail verification link (it lands on /login?verify=…). */
export async function requestVerificationMail(email: string): Promise<void> {
  await pb().collection("users").requestVerification(email);
}

export async function signInWithPassword(email: string, password: string): Promise<void> {
  await pb().collection("users").authWithPassword(email.trim().toLowerCase(), password);
}

/** Mails a one-time sign-in code; returns the id authWithOTP needs. */
export async function requestSignInCode(email: string): Promise<string> {
  const { otpId } = await pb().collection("users").requestOTP(email.trim().toLowerCase());
  return otpId;
}

export async function signInWithCode(otpId: string, code: string): Promise<void> {
  await pb().collection("users").authWithOTP(otpId, code.trim());
}

export interface SignUpData {
  first_name: string;
  last_name: string;
  email: string;
  country: string;
  ref?: string;
}

/** POST /api/shop/signup: creates the account and signs this browser in. */
export async function signUp(data: SignUpData): Promise<void> {
  const res = await pb().send<{ token: string; record: UserRecord }>("/api/shop/signup", {
    method: "POST",
    body: data,
    requestKey: null,
  });
  pb().authStore.save(res.token, res.record);
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
}

/** Mails a link to /reset-password for an account that has no password of its own yet. */
export async function requestPasswordLink(email: string): Promise<void> {
  await pb().collection("users").requestPasswordReset(email);
}

export async function setPasswordWithToken(token: string, password: string): Promise<void> {
  await pb().collection("users").confirmPasswordReset(token, password, password);
}

export function signOut(): void {
  leaving = true;
  pb().authStore.clear();
  writeCookie();
  window.location.replace("/login");
}
