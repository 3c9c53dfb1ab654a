import type { ReactNode } from "react";
import { ShieldAlert } from "lucide-react";
import { AuthGate } from "@/components/session/auth-gate";
import type { UserRecord } from "@/lib/pocketbase-types";

/**
 * Renders a console page's content for a signed-in admin. The server refused others first
 * (the /console guard and every /api/admin/ route); this only mirrors it, with the
 * spec's "Access Denied" for a session whose admin flag was removed meanwhile.
 */
export function AdminGate({
  children,
  initialUser = null,
}: {
  children: (admin: UserRecord) => ReactNode;
  /** The admin the server verified for this request (see AuthGate). */
  initialUser?: UserRecord | null | undefined;
}) {
  return <AuthGate initialUser={initialUser}>{(user) => (user.is_admin ? children(user) : <AccessDenied />)}</AuthGate>;
}

export function AccessDenied() {
  return (
    <div role="alert" className="mx-auto mt-16 max-w-md text-center">
      <ShieldAlert className="mx-auto size-10 text-red-600" aria-hidden="true" />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">Access Denied</h1>
      <p className="mt-2 text-sm text-slate-600">You need administrator privileges to access this page.</p>
    </div>
  );
}
