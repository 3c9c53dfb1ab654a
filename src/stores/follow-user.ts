// Per-user work of a store: runs while the store is mounted, for whoever is signed in.
import { $auth } from "@/stores/auth";

/**
 * Follows the signed-in user's id: `start(userId)` runs for each new user and its answer
 * (a stop function) when the user changes or the follow ends; `signedOut` runs when the
 * user signs out. Answers the function that ends the follow.
 */
export function followUser(start: (userId: string) => () => void, signedOut?: () => void): () => void {
  let stop: (() => void) | null = null;
  let current: string | null = null;
  const unbind = $auth.subscribe(({ user }) => {
    const id = user?.id ?? null;
    if (id === current) return;
    stop?.();
    stop = null;
    current = id;
    if (id) stop = start(id);
    else signedOut?.();
  });
  return () => {
    unbind();
    stop?.();
  };
}
