import { CONSOLE_NAV, CUSTOMER_NAV, isActive } from "@/features/app-shell/nav";
import { cn } from "@/lib/cn";

export type AppArea = "dashboard" | "console";

const AREAS = {
  dashboard: { items: CUSTOMER_NAV, label: "Dashboard" },
  console: { items: CONSOLE_NAV, label: "Console" },
} as const;

/** The area's navigation: a sidebar on wide screens, the first five as a bottom bar on small ones. Static HTML. */
export function Sidebar({ pathname, area = "dashboard" }: { pathname: string; area?: AppArea }) {
  const { items, label: areaLabel } = AREAS[area];
  return (
    <>
      <nav aria-label={areaLabel} className="hidden w-60 shrink-0 border-r border-slate-200 bg-white md:block">
        <ul className="space-y-1 p-4">
          {items.map(({ href, label, icon: Icon }) => {
            const active = isActive(href, pathname);
            return (
              <li key={href}>
                <a
                  href={href}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
                    active ? "bg-primary/10 font-semibold text-slate-900" : "text-slate-700 hover:bg-slate-100",
                  )}
                >
                  <Icon className="size-4" aria-hidden="true" />
                  {label}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      <nav aria-label={`${areaLabel} shortcuts`} className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white md:hidden">
        <ul className="grid grid-cols-5">
          {items.slice(0, 5).map(({ href, label, icon: Icon }) => {
            const active = isActive(href, pathname);
            return (
              <li key={href}>
                <a
                  href={href}
                  aria-current={active ? "page" : undefined}
                  className={cn("flex flex-col items-center gap-1 py-2 text-xs", active ? "text-primary" : "text-slate-600")}
                >
                  <Icon className="size-5" aria-hidden="true" />
                  {label}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}
