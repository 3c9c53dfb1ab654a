import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import { cn } from "@/lib/cn";

type ToggleProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "role"> & {
  id: string;
  label: ReactNode;
  hint: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** An on/off setting: a native checkbox drawn as a switch, with its label and hint. */
export function Toggle({ id, label, hint, className, ...props }: ToggleProps) {
  return (
    <div className={cn("flex items-start justify-between gap-4", className)}>
      <div className="min-w-0">
        <label htmlFor={id} className="block text-sm font-medium text-slate-900">
          {label}
        </label>
        <div id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
          {hint}
        </div>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-describedby={`${id}-hint`}
        className="relative mt-0.5 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-400 transition-colors before:absolute before:top-0.5 before:left-0.5 before:size-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-primary checked:before:translate-x-5 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60"
        {...props}
      />
    </div>
  );
}
