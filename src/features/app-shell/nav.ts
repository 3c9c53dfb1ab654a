import { ArrowLeftRight, CreditCard, Gift, LayoutDashboard, LifeBuoy, type LucideIcon, Server, Settings, ShoppingCart } from "lucide-react";

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

export function isActive(href: string, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return href === "/dashboard" ? path === href : path === href || path.startsWith(`${href}/`);
}
