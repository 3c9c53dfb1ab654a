// A figure's change against the previous period, in the server's words ("+12% vs previous
// 30 days", "No change", "New"): green when it grew, red when it fell.
import { cn } from "@/lib/cn";
import type { Growth } from "@/features/console-analytics/api";

export function GrowthCaption({ growth, className }: { growth: Growth; className?: string }) {
  const change = growth.change_percent;
  const tone = change === null || change > 0 ? "text-green-700" : change < 0 ? "text-red-700" : "text-slate-600";
  return <span className={cn("font-medium", tone, className)}>{growth.caption}</span>;
}
