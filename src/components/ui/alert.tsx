import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

const tones = {
  error: "border-red-200 bg-red-50 text-red-800",
  success: "border-green-200 bg-green-50 text-green-800",
  info: "border-blue-200 bg-blue-50 text-blue-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
} as const;

type Tone = keyof typeof tones;

/** A banner for an async outcome; announced to screen readers. */
export function Alert({ tone = "info", className, children }: { tone?: Tone | undefined; className?: string; children: ReactNode }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md border px-4 py-3 text-sm", tones[tone], className)}>
      {children}
    </div>
  );
}

/** A failed load: what went wrong, and a button that tries it again. */
export function LoadError({ message, onRetry, className }: { message: ReactNode; onRetry: () => void; className?: string }) {
  return (
    <Alert tone="error" className={cn("flex flex-wrap items-center justify-between gap-2", className)}>
      <span>{message}</span>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-100"
      >
        Try again
      </button>
    </Alert>
  );
}

/**
 * A polite live region holding an Alert while there is something to say: it is in the page
 * before the message comes (so screen readers announce it) and takes no room while empty.
 */
export function LiveAlert({ tone, className, children }: { tone?: Tone | undefined; className?: string; children: ReactNode }) {
  return (
    <div aria-live="polite" className={cn("empty:hidden", className)}>
      {children ? <Alert tone={tone}>{children}</Alert> : null}
    </div>
  );
}
