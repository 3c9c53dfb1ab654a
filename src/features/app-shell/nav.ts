import {
  ArrowLeftRight,
  BarChart3,
  CreditCard,
  Gift,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  Mail,
  ScrollText,
  Server,
  Settings,
  ShoppingCart,
  Tags,
  Users,
} from "lucide-react";

export type AppArea = "dashboard" | "console";

export interface NavItem {
  href: string;
  label: string;
  /** The phone bar's label when `label` is too long for a sixth of a phone (issue #28, 19). */
  short?: string;
  icon: LucideIcon;
}

/** The customer sidebar (spec 2.2); the first five form the bottom bar on small screens. */
export const CUSTOMER_NAV: readonly NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard },
  { href: "/dashboard/buy-credits", label: "Buy Credits", icon: CreditCard },
  { href: "/dashboard/buy-proxies", label: "Buy Proxies", icon: ShoppingCart },
  { href: "/dashboard/proxies", label: "My Proxies", icon: Server },
  { href: "/dashboard/affiliate", label: "Affiliate", icon: Gift },
  { href: "/dashboard/transactions", label: "Transactions", icon: ArrowLeftRight },
  { href: "/dashboard/support", label: "Support", icon: LifeBuoy },
  { href: "/dashboard/settings", label: "Settings", icon: Settings },
];

/**
 * The console sidebar (admin spec 2), then the contact inbox (the spec's contact form
 * stores real messages, ARCHITECTURE departure 4); the first five form the bottom bar.
 */
export const CONSOLE_NAV: readonly NavItem[] = [
  { href: "/console", label: "Overview", icon: LayoutDashboard },
  { href: "/console/users", label: "User Management", short: "Users", icon: Users },
  { href: "/console/affiliates", label: "Affiliate Management", short: "Affiliates", icon: Gift },
  { href: "/console/pricing", label: "Pricing Management", short: "Pricing", icon: Tags },
  { href: "/console/proxies", label: "Proxy Management", short: "Proxies", icon: Server },
  { href: "/console/support", label: "Support Tickets", icon: LifeBuoy },
  { href: "/console/analytics", label: "Analytics", icon: BarChart3 },
  { href: "/console/logs", label: "Audit Logs", icon: ScrollText },
  { href: "/console/settings", label: "System Settings", icon: Settings },
  { href: "/console/messages", label: "Contact Messages", icon: Mail },
];

/** How many items of an area's navigation the bottom bar shows on small screens (spec). */
export const BAR_SIZE = 5;

/** Each area's navigation and its name (the sidebar's landmark label). */
export const AREA_NAV: Readonly<Record<AppArea, { items: readonly NavItem[]; label: string }>> = {
  dashboard: { items: CUSTOMER_NAV, label: "Dashboard" },
  console: { items: CONSOLE_NAV, label: "Console" },
};

/** Where an admin switches to from each area: the header's Admin Console link, and back. */
export const AREA_SWITCH: Readonly<Record<AppArea, { href: string; label: string }>> = {
  dashboard: { href: "/console", label: "Admin Console" },
  console: { href: "/dashboard", label: "Back to Dashboard" },
};

/** Section roots are active only on their own page; other items on theirs and below. */
const SECTION_ROOTS = new Set(["/dashboard", "/console"]);

export function isActive(href: string, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return SECTION_ROOTS.has(href) ? path === href : path === href || path.startsWith(`${href}/`);
}
