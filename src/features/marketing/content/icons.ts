// The icons marketing copy (src/content/marketing/*.yaml) may name, by their lucide name.
// Server-only: FeatureCard draws them into the page's HTML, so the namespace import never
// reaches a browser bundle.
import * as lucide from "lucide-react";

export const MARKETING_ICON_NAMES = [
  "Activity",
  "Bug",
  "ChartColumn",
  "Code",
  "Globe",
  "GraduationCap",
  "Handshake",
  "House",
  "Link2",
  "Megaphone",
  "Search",
  "Server",
  "Share2",
  "Shield",
  "ShieldCheck",
  "ShoppingCart",
  "Smartphone",
  "Store",
  "Zap",
] as const satisfies readonly (keyof typeof lucide)[];

export type MarketingIconName = (typeof MARKETING_ICON_NAMES)[number];

export function marketingIcon(name: MarketingIconName): lucide.LucideIcon {
  return lucide[name];
}
