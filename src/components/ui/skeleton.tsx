import { cn } from "@/lib/cn";

/** A grey placeholder block while something loads. */
export function Skeleton({ className }: { className?: string }) {
  return <div className={cn("animate-pulse rounded bg-slate-200", className)} aria-hidden="true" />;
}
