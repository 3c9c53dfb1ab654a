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

export interface NavItem {
  href: string;
  label: string;
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
  { href: "/console/users", label: "User Management", icon: Users },
  { href: "/console/affiliates", label: "Affiliate Management", icon: Gift },
  { href: "/console/pricing", label: "Pricing Management", icon: Tags },
  { href: "/console/proxies", label: "Proxy Management", icon: Server },
  { href: "/console/support", label: "Support Tickets", icon: LifeBuoy },
  { href: "/console/analytics", label: "Analytics", icon: BarChart3 },
  { href: "/console/logs", label: "Audit Logs", icon: ScrollText },
  { href: "/console/settings", label: "System Settings", icon: Settings },
  { href: "/console/messages", label: "Contact Messages", icon: Mail },
];

/** Section roots are active only on their own page; other items on theirs and below. */
const SECTION_ROOTS = new Set(["/dashboard", "/console"]);

export function isActive(href: string, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return SECTION_ROOTS.has(href) ? path === href : path === href || path.startsWith(`${href}/`);
}
