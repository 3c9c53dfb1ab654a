/**
 * Wraps a reload so that at most one run is in flight, and a request that arrives while
 * one runs gets exactly one more run after it: the last run always starts after the last
 * request, so its result is the newest, and an older read can never overwrite a newer one.
 * The returned promise settles when the runs that cover this request are done.
 */
export function coalesce(run: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  let again = false;
  return () => {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };
}
