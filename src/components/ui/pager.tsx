import { Button } from "@/components/ui/button";

interface PagerProps {
  page: number;
  /** Whether a next page exists. */
  hasNext: boolean;
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** Previous / Next paging with the current page number. */
export function Pager({ page, hasNext, onPage, disabled = false }: PagerProps) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between gap-3">
      <Button variant="secondary" size="sm" disabled={disabled || page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className="text-sm text-slate-600">Page {page}</span>
      <Button variant="secondary" size="sm" disabled={disabled || !hasNext} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
