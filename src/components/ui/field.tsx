import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

interface FieldProps {
  /** id of the control, so the label and the error are tied to it. */
  id: string;
  label: ReactNode;
  error?: string | undefined;
  /** A sentence under the control explaining it (the control names it with fieldAria's `hint`). */
  hint?: ReactNode | undefined;
  className?: string | undefined;
  children: ReactNode;
}

/** A label, its control, an optional hint, and the field's error message in red under it (spec section 5). */
export function Field({ id, label, error, hint, className, children }: FieldProps) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Props for the control inside a Field: marks it invalid and points at its message, and at
 * the Field's hint when it has one (`hint: true`), so an error never hides the hint.
 */
export function fieldAria(id: string, error: string | undefined, options: { hint?: boolean } = {}) {
  const describedBy = [options.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return { "aria-invalid": !!error, ...(describedBy ? { "aria-describedby": describedBy } : {}) };
}
