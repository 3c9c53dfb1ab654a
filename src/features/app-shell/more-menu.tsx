// The bottom bar's "More" (issue #15): the sixth item of the phone bar, an island of its own
// inside the static sidebar. It opens a sheet with the rest of the area's navigation, the
// admin's area switch and Sign Out, in the project's dialog (Headless UI: focus trap,
// Escape, aria-modal, focus back to More).
import { Ellipsis, LayoutDashboard, LogOut, Shield } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { AREA_NAV, AREA_SWITCH, BAR_SIZE, isActive, type AppArea } from "@/features/app-shell/nav";
import { cn } from "@/lib/cn";
import { signOut } from "@/stores/auth";

interface MoreMenuProps {
  area: AppArea;
  /** The page shown (marked in the sheet). */
  pathname: string;
  /** Admins also get the switch to the other area. */
  isAdmin: boolean;
}

/** The bar's More button and its sheet: items 6+ of the area's navigation, the area switch (admins) and Sign Out. */
export function MoreMenu({ area, pathname, isAdmin }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const close = () => setOpen(false);

  // A page restored from the back/forward cache comes back with the sheet closed.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setOpen(false);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  const nav = AREA_NAV[area];
  const areaSwitch = AREA_SWITCH[area];
  const SwitchIcon = area === "console" ? LayoutDashboard : Shield;
  const rowClass = "flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium";

  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        className="flex w-full flex-col items-center gap-1 px-0.5 py-2 text-xs leading-tight text-slate-600"
      >
        <Ellipsis className="size-5" aria-hidden="true" />
        More
      </button>
      <Dialog open={open} onClose={close} title="More" className="mt-auto">
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
          {isAdmin ? (
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
      </Dialog>
    </>
  );
}
