import type { ReactNode } from "react";
import { LoadingScreen } from "@/components/session/loading-screen";
import { useSession } from "@/components/session/use-session";
import type { UserRecord } from "@/lib/pocketbase-types";

/** Renders its content for the signed-in user, the loading screen until then. */
export function AuthGate({ children }: { children: (user: UserRecord) => ReactNode }) {
  const auth = useSession();
  if (auth.status !== "signed-in" || !auth.user) return <LoadingScreen />;
  return <>{children(auth.user)}</>;
}
