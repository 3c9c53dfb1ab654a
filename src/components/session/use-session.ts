import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $auth, isSigningOut, startAuth, type AuthState } from "@/stores/auth";

/** Auth loading longer than this sends the user to /login (spec 2.1). */
export const AUTH_TIMEOUT_MS = 10_000;

function toLogin(): void {
  const here = window.location.pathname + window.location.search;
  window.location.replace(`/login?next=${encodeURIComponent(here)}`);
}

/**
 * The session for a protected island: starts it, sends a signed-out visitor to /login
 * (the server guard normally got there first), and gives up after 10 s of loading.
 */
export function useSession(): AuthState {
  const auth = useStore($auth);
  useEffect(() => startAuth(), []);
  useEffect(() => {
    if (auth.status === "signed-out" && !isSigningOut()) toLogin();
    if (auth.status !== "loading") return;
    const timer = window.setTimeout(toLogin, AUTH_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [auth.status]);
  return auth;
}
