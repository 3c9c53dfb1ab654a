// The More sheet: the rest of the area's navigation, the admin's area switch and Sign out,
// in the project's dialog (Headless UI: focus trap, Escape, aria-modal, focus back to More).
import { LayoutDashboard, LogOut, Shield } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { AREA_NAV, AREA_SWITCH, BAR_SIZE, type AppArea } from "@/features/app-shell/nav";
import { NavList } from "@/features/app-shell/nav-list";
import { signOut } from "@/stores/auth";

interface MoreSheetProps {
  open: boolean;
  onClose: () => void;
  area: AppArea;
  pathname: string;
  isAdmin: boolean;
}

export function MoreSheet({ open, onClose: close, area, pathname, isAdmin }: MoreSheetProps) {
  const [leaving, setLeaving] = useState(false);
  const nav = AREA_NAV[area];
  const areaSwitch = AREA_SWITCH[area];
  const SwitchIcon = area === "console" ? LayoutDashboard : Shield;
  return (
    <Dialog open={open} onClose={close} title="More" className="mt-auto">
      <nav aria-label={`More ${nav.label.toLowerCase()} pages`}>
        <NavList items={nav.items.slice(BAR_SIZE)} pathname={pathname} rowClassName="py-2.5" onNavigate={close} />
      </nav>
      <div className="mt-3 space-y-1 border-t border-slate-200 pt-3">
        {isAdmin ? (
          <a
            href={areaSwitch.href}
            onClick={close}
            className="flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium text-primary hover:bg-slate-100"
          >
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
          Sign out
        </Button>
      </div>
      <Button variant="secondary" className="mt-4 w-full" onClick={close}>
        Close
      </Button>
    </Dialog>
  );
}
