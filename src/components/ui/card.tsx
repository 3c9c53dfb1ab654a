import type { HTMLAttributes } from "react";
import { cn } from "@/lib/cn";

/** A white panel with a border: the frame of every dashboard section. */
export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("rounded-xl border border-slate-200 bg-white p-5 shadow-sm", className)} {...props} />;
}
