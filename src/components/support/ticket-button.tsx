// One ticket in a ticket list (the customer's and the console's): a button that opens it,
// marked current while it is open.
import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

interface TicketButtonProps {
  active: boolean;
  onSelect: () => void;
  /** data-testid, for the tests that count the list's tickets. */
  testId: string;
  children: ReactNode;
}

export function TicketButton({ active, onSelect, testId, children }: TicketButtonProps) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={active ? "true" : undefined}
      data-testid={testId}
      className={cn(
        "block w-full px-4 py-3 text-left hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none focus-visible:ring-inset",
        active && "bg-primary/5 hover:bg-primary/10",
      )}
    >
      {children}
    </button>
  );
}
