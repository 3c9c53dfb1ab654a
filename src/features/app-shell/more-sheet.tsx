// The bottom bar's "More" (issue #15): the bar is static HTML (the sidebar has no client
// directive), so its More button is plain markup and the signed-in header, the frame's one
// island, owns the sheet: it listens to the button, keeps its aria-expanded in step and
// shows the rest of the area's navigation, the admin's area switch and Sign Out in the
// project's dialog (Headless UI: focus trap, Escape, aria-modal, focus back to More).
import { Ellipsis, LayoutDashboard, LogOut, Shield } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { AREA_NAV, AREA_SWITCH, BAR_SIZE, isActive, isAppArea, type AppArea } from "@/features/app-shell/nav";
import { cn } from "@/lib/cn";
import { signOut } from "@/stores/auth";

/** Marks the bar's More button; its value is the area whose sheet it opens. */
const TRIGGER = "data-app-more";

/** The bar's sixth item (static; MoreSheet opens the sheet). */
export function MoreButton({ area }: { area: AppArea }) {
  return (
    <button
      type="button"
      data-app-more={area}
      aria-haspopup="dialog"
      aria-expanded="false"
      className="flex w-full flex-col items-center gap-1 px-0.5 py-2 text-xs leading-tight text-slate-600"
    >
      <Ellipsis className="size-5" aria-hidden="true" />
      More
    </button>
  );
}

function triggers(): HTMLButtonElement[] {
  return [...document.querySelectorAll<HTMLButtonElement>(`button[${TRIGGER}]`)];
}

/** The More sheet: items 6+ of the area's navigation, the area switch (admins) and Sign Out. */
export function MoreSheet({ isAdmin }: { isAdmin: boolean }) {
  // The area whose sheet is open, or null when closed.
  const [area, setArea] = useState<AppArea | null>(null);
  const [leaving, setLeaving] = useState(false);
  const close = () => setArea(null);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const value = (event.currentTarget as HTMLButtonElement).getAttribute(TRIGGER);
      if (isAppArea(value)) setArea(value);
    };
    // A page restored from the back/forward cache comes back with the sheet closed.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setArea(null);
    };
    const buttons = triggers();
    for (const button of buttons) button.addEventListener("click", onClick);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      for (const button of buttons) button.removeEventListener("click", onClick);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, []);

  useEffect(() => {
    for (const button of triggers()) button.setAttribute("aria-expanded", String(area !== null));
  }, [area]);

  const pathname = typeof window === "undefined" ? "" : window.location.pathname;
  const nav = area ? AREA_NAV[area] : null;
  const areaSwitch = area ? AREA_SWITCH[area] : null;
  const SwitchIcon = area === "console" ? LayoutDashboard : Shield;
  const rowClass = "flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium";

  return (
    <Dialog open={area !== null} onClose={close} title="More" className="mt-auto">
      {nav ? (
        <>
          <nav aria-label={`More ${nav.label.toLowerCase()} pages`}>
            <ul className="space-y-1">
              {nav.items.slice(BAR_SIZE).map(({ href, label, icon: Icon }) => {
                const active = isActive(href, pathname);
                return (
                  <li key={href}>
                    <a
                      href={href}
                      onClick={close}
                      aria-current={active ? "page" : undefined}
                      className={cn(rowClass, active ? "bg-primary/10 font-semibold text-slate-900" : "text-slate-700 hover:bg-slate-100")}
                    >
                      <Icon className="size-4" aria-hidden="true" />
                      {label}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className="mt-3 space-y-1 border-t border-slate-200 pt-3">
            {isAdmin && areaSwitch ? (
              <a href={areaSwitch.href} onClick={close} className={cn(rowClass, "text-primary hover:bg-slate-100")}>
                <SwitchIcon className="size-4" aria-hidden="true" />
                {areaSwitch.label}
              </a>
            ) : null}
            <Button
              variant="ghost"
              className="w-full justify-start px-3"
              pending={leaving}
              pendingText="Signing out…"
              onClick={() => {
                setLeaving(true);
                signOut();
              }}
            >
              <LogOut className="size-4" aria-hidden="true" />
              Sign Out
            </Button>
          </div>
          <Button variant="secondary" className="mt-4 w-full" onClick={close}>
            Close
          </Button>
        </>
      ) : null}
    </Dialog>
  );
}
