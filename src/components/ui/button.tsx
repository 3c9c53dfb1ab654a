import { cva, type VariantProps } from "class-variance-authority";
import { Loader2, RefreshCw } from "lucide-react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { cn } from "@/lib/cn";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors disabled:pointer-events-none disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-primary text-primary-foreground hover:brightness-110",
        secondary: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
        ghost: "text-slate-700 hover:bg-slate-100",
        danger: "bg-red-600 text-white hover:bg-red-700",
      },
      size: {
        sm: "h-8 px-3 text-sm",
        md: "h-10 px-4 text-sm",
        lg: "h-12 px-6 text-base",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  VariantProps<typeof buttonVariants> & {
    /** Busy: disabled, with a spinner and `pendingText` (or the usual label). */
    pending?: boolean;
    pendingText?: ReactNode;
  };

export function Button({
  className,
  variant,
  size,
  type = "button",
  pending = false,
  pendingText,
  disabled,
  children,
  ...props
}: ButtonProps) {
  return (
    <button type={type} className={cn(buttonVariants({ variant, size }), className)} disabled={disabled || pending} {...props}>
      {pending ? (
        <>
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> {pendingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** The Refresh button of a page header: reloads the page's data, "Refreshing..." while it does. */
export function RefreshButton({ onRefresh, pending }: { onRefresh: () => void; pending: boolean }) {
  return (
    <Button variant="secondary" onClick={onRefresh} pending={pending} pendingText="Refreshing...">
      <RefreshCw className="size-4" aria-hidden="true" />
      Refresh
    </Button>
  );
}
