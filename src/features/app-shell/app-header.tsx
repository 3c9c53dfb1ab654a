import { useStore } from "@nanostores/react";
import { LogOut, Settings, Shield } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { MORE_BUTTON_ID } from "@/features/app-shell/more-button";
import type { AppArea } from "@/features/app-shell/nav";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $auth, signOut, startAuth } from "@/stores/auth";

// The phone bar's More sheet (the dialog library with it) loads on the first open.
const MoreSheet = lazyComponent(() => import("@/features/app-shell/more-sheet"), "MoreSheet");

interface AppHeaderProps {
  siteName: string;
  /** The user the server verified for this request (shown before the island hydrates). */
  initialUser: Pick<UserRecord, "email" | "is_admin"> | null;
  /** The area shown and the page's path: the More sheet lists the rest of its navigation. */
  area: AppArea;
  pathname: string;
}

/** Signed-in header (spec 2.2); it also owns the phone bar's More sheet. */
export function AppHeader({ siteName, initialUser, area, pathname }: AppHeaderProps) {
  const auth = useStore($auth);
  useEffect(() => startAuth(), []);
  const user = auth.user ?? initialUser;
  const more = useMoreButton();

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
      {more.opened ? (
        <MoreSheet open={more.open} onClose={more.close} area={area} pathname={pathname} isAdmin={user?.is_admin === true} />
      ) : null}
    </header>
  );
}

/**
 * The bottom bar's More button (static HTML in sidebar.tsx, absent without a sidebar): opens
 * the sheet, keeps its aria-expanded in step, gets the focus back when the sheet closes (the
 * dialog library starts its focus history only once loaded, after More was focused, so it
 * cannot), and a page restored from the back/forward cache comes back with the sheet closed.
 */
function useMoreButton() {
  const [open, setOpen] = useState(false);
  // Whether the sheet was ever opened: its code loads then, not with every page.
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    const button = document.getElementById(MORE_BUTTON_ID);
    if (!button) return;
    const onClick = () => {
      setOpened(true);
      setOpen(true);
    };
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setOpen(false);
    };
    button.addEventListener("click", onClick);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      button.removeEventListener("click", onClick);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, []);

  useEffect(() => {
    const button = document.getElementById(MORE_BUTTON_ID);
    if (!button) return;
    button.setAttribute("aria-expanded", String(open));
    if (opened && !open) button.focus();
  }, [opened, open]);

  return { open, opened, close: () => setOpen(false) };
}
