import { Ellipsis } from "lucide-react";
import { MORE_BUTTON_ID } from "@/features/app-shell/more-button";
import { AREA_NAV, BAR_SIZE, isActive, type AppArea } from "@/features/app-shell/nav";
import { NavList } from "@/features/app-shell/nav-list";
import { cn } from "@/lib/cn";

export type { AppArea } from "@/features/app-shell/nav";

/**
 * The area's navigation: a sidebar on wide screens; on small ones a bottom bar with the first
 * five items and More, whose sheet holds the rest, the area switch and Sign out. Static HTML:
 * the header island (app-header.tsx) wires the More button by its id and owns the sheet, so
 * the bar costs no island of its own.
 */
export function Sidebar({ pathname, area = "dashboard" }: { pathname: string; area?: AppArea }) {
  const { items, label: areaLabel } = AREA_NAV[area];
  return (
    <>
      <nav aria-label={areaLabel} className="hidden w-60 shrink-0 border-r border-slate-200 bg-white md:block">
        <NavList items={items} pathname={pathname} className="space-y-1 p-4" />
      </nav>
      <nav aria-label={`${areaLabel} shortcuts`} className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white md:hidden">
        <ul className="grid grid-cols-6">
          {items.slice(0, BAR_SIZE).map(({ href, label, short, icon: Icon }) => {
            const active = isActive(href, pathname);
            return (
              <li key={href}>
                <a
                  href={href}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "flex flex-col items-center gap-1 px-0.5 py-2 text-center text-xs leading-tight",
                    active ? "text-primary" : "text-slate-600",
                  )}
                >
                  <Icon className="size-5" aria-hidden="true" />
                  {short ?? label}
                </a>
              </li>
            );
          })}
          <li>
            <button
              id={MORE_BUTTON_ID}
              type="button"
              aria-haspopup="dialog"
              aria-expanded="false"
              className="flex w-full flex-col items-center gap-1 px-0.5 py-2 text-xs leading-tight text-slate-600"
            >
              <Ellipsis className="size-5" aria-hidden="true" />
              More
            </button>
          </li>
        </ul>
      </nav>
    </>
  );
}
