import { useEffect, useState } from "react";

/**
 * False in the server-rendered HTML and until the island hydrates. Forms keep their
 * submit buttons disabled until then, so an early click can never fall back to a native
 * GET submit that would put the typed values (passwords) in the URL.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
