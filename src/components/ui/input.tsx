import type { InputHTMLAttributes, Ref } from "react";
import { cn } from "@/lib/cn";

/** The look of every text control (inputs, selects, textareas). */
export const controlClass =
  "block w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500 focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/30 aria-[invalid=true]:border-red-500";

export type InputProps = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

export function Input({ className, ...props }: InputProps) {
  return <input className={cn(controlClass, "h-10", className)} {...props} />;
}
