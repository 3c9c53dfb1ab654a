import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

interface FieldProps {
  /** id of the control, so the label and the error are tied to it. */
  id: string;
  label: ReactNode;
  error?: string | undefined;
  className?: string;
  children: ReactNode;
}

/** A label, its control, and the field's error message in red under it (spec section 5). */
export function Field({ id, label, error, className, children }: FieldProps) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Props for the control inside a Field: marks it invalid and points at its message. */
export function fieldAria(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : { "aria-invalid": false };
}
