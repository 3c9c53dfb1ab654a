import { useStore } from "@nanostores/react";
import { LogOut, Settings, Shield } from "lucide-react";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $auth, signOut, startAuth } from "@/stores/auth";

interface AppHeaderProps {
  siteName: string;
  /** The user the server verified for this request (shown before the island hydrates). */
  initialUser: Pick<UserRecord, "email" | "is_admin"> | null;
}

/** Signed-in header (spec 2.2). */
export function AppHeader({ siteName, initialUser }: AppHeaderProps) {
  const auth = useStore($auth);
  useEffect(() => startAuth(), []);
  const user = auth.user ?? initialUser;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <div className="flex h-16 items-center gap-4 px-4 sm:px-6">
        <a href="/dashboard" className="text-lg font-bold text-slate-900">
          {siteName}
        </a>
        <nav aria-label="Main" className="hidden items-center gap-4 text-sm text-slate-700 sm:flex">
          <a href="/dashboard" className="hover:text-primary">
            Dashboard
          </a>
          <a href="/docs" className="hover:text-primary">
            Docs
          </a>
          <a href="/program" className="hover:text-primary">
            Programs
          </a>
          {user?.is_admin ? (
            <a href="/console" className="inline-flex items-center gap-1 font-medium text-primary hover:underline">
              <Shield className="size-4" aria-hidden="true" />
              Admin Console
            </a>
          ) : null}
        </nav>
        <div className="ml-auto flex items-center gap-3">
          {user ? (
            <div className="hidden text-right text-sm md:block">
              <div className="font-medium text-slate-900" data-testid="header-email">
                {user.email}
              </div>
              {user.is_admin ? <div className="text-xs font-semibold text-primary">Administrator</div> : null}
            </div>
          ) : null}
          <a href="/dashboard/settings" className="rounded-md p-2 text-slate-600 hover:bg-slate-100" aria-label="Account settings">
            <Settings className="size-5" aria-hidden="true" />
          </a>
          <Button variant="ghost" size="sm" onClick={signOut}>
            <LogOut className="size-4" aria-hidden="true" />
            Sign out
          </Button>
        </div>
      </div>
    </header>
  );
}
