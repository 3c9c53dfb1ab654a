import type { Ref, SelectHTMLAttributes } from "react";
import { controlClass } from "@/components/ui/input";
import { cn } from "@/lib/cn";

export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> };

/** A native select in the look of every control (keyboard and screen readers for free). */
export function Select({ className, ...props }: SelectProps) {
  return <select className={cn(controlClass, "h-10 pr-8", className)} {...props} />;
}
