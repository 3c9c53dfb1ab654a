import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { useHydrated } from "@/lib/use-hydrated";
import { $auth, isSigningOut, startAuth, type AuthState } from "@/stores/auth";

/** Auth loading longer than this sends the user to /login (spec 2.1). */
export const AUTH_TIMEOUT_MS = 10_000;

function toLogin(): void {
  const here = window.location.pathname + window.location.search;
  window.location.replace(`/login?next=${encodeURIComponent(here)}`);
}

/** What the server rendered with: its store never starts (startAuth runs in browsers only). */
const SERVER_STATE: AuthState = { status: "loading", user: null };

/**
 * The session for a protected island: starts it, sends a signed-out visitor to /login
 * (the server guard normally got there first), and gives up after 10 s of loading. While the
 * island hydrates it answers what the server rendered with, even when another island (the
 * header) already started the session: a signed-in first render would not match the HTML
 * (React error #418, issue #15).
 */
export function useSession(): AuthState {
  const auth = useStore($auth);
  const hydrated = useHydrated();
  useEffect(() => startAuth(), []);
  useEffect(() => {
    if (auth.status === "signed-out" && !isSigningOut()) toLogin();
    if (auth.status !== "loading") return;
    const timer = window.setTimeout(toLogin, AUTH_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [auth.status]);
  return hydrated ? auth : SERVER_STATE;
}
