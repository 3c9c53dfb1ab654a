import { isActive, type NavItem } from "@/features/app-shell/nav";
import { cn } from "@/lib/cn";

interface NavListProps {
  items: readonly NavItem[];
  /** The page shown: its item is marked aria-current="page". */
  pathname: string;
  /** The list's spacing. */
  className?: string;
  /** The rows' height (the sheet's rows are taller to tap). */
  rowClassName?: string;
  /** Called when a link is followed (the More sheet closes). */
  onNavigate?: () => void;
}

/** A column of the area's pages with their icons: the wide sidebar and the More sheet. */
export function NavList({ items, pathname, className = "space-y-1", rowClassName = "py-2", onNavigate }: NavListProps) {
  return (
    <ul className={className}>
      {items.map(({ href, label, icon: Icon }) => {
        const active = isActive(href, pathname);
        return (
          <li key={href}>
            <a
              href={href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-3 rounded-md px-3 text-sm font-medium",
                rowClassName,
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
  );
}
