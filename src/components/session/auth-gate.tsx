import { Suspense, type ReactNode } from "react";
import { LoadingScreen } from "@/components/session/loading-screen";
import { useSession } from "@/components/session/use-session";
import type { UserRecord } from "@/lib/pocketbase-types";

interface AuthGateProps {
  children: (user: UserRecord) => ReactNode;
  /**
   * The user the server verified for this request (src/middleware.ts). With it the content
   * renders at once, on the server and in the browser, while the browser's session starts;
   * without it the loading screen shows until then.
   */
  initialUser?: UserRecord | null | undefined;
}

/** Renders its content for the signed-in user, the loading screen until then. */
export function AuthGate({ children, initialUser = null }: AuthGateProps) {
  const auth = useSession();
  const user = auth.status === "signed-in" ? auth.user : auth.status === "loading" ? initialUser : null;
  if (!user) return <LoadingScreen />;
  // A render error on the server (in seeded content) then ends in the loading screen and
  // the browser renders the page itself, instead of breaking the HTML stream.
  return <Suspense fallback={<LoadingScreen />}>{children(user)}</Suspense>;
}
