import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

interface LoadMoreProps {
  /** Whether the list has more rows to load. */
  shown: boolean;
  pending: boolean;
  onLoad: () => void;
  children: ReactNode;
}

/** The footer of a list that loads in pages: one full-width button, busy while the next page loads. */
export function LoadMore({ shown, pending, onLoad, children }: LoadMoreProps) {
  if (!shown) return null;
  return (
    <div className="border-t border-slate-200 p-3">
      <Button variant="secondary" size="sm" className="w-full" pending={pending} onClick={onLoad}>
        {children}
      </Button>
    </div>
  );
}
