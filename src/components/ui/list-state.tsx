// What every list shows around its rows: skeleton rows while the first page loads, the
// error with a retry when nothing could be loaded, its empty state, and, over rows already
// shown, the error of a reload that failed.
import type { ReactNode } from "react";
import { Inbox } from "lucide-react";
import { Alert, LoadError } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";

interface ListStateProps {
  /** "idle": nothing asked yet (shown as loading). */
  status: "idle" | "loading" | "ready" | "error";
  error: string;
  /** Something has loaded: rows, or an answer with none. */
  loaded: boolean;
  /** The loaded answer has no rows. */
  empty: boolean;
  onRetry: () => void;
  /** The skeleton's name for screen readers: "Loading users". */
  loadingLabel: string;
  /** Shown when the answer has no rows (usually an EmptyState). */
  emptyState: ReactNode;
  /** Classes of each skeleton row (its height). */
  skeletonClassName?: string;
  skeletonRows?: number;
  className?: string;
  children: ReactNode;
}

export function ListState({
  status,
  error,
  loaded,
  empty,
  onRetry,
  loadingLabel,
  emptyState,
  skeletonClassName = "h-14",
  skeletonRows = 5,
  className = "space-y-4",
  children,
}: ListStateProps) {
  if (!loaded && status === "error") return <LoadError message={error} onRetry={onRetry} />;
  if (!loaded) return <ListSkeleton label={loadingLabel} rows={skeletonRows} rowClassName={skeletonClassName} />;
  if (empty) return <>{emptyState}</>;
  return (
    <div className={className}>
      {status === "error" ? <Alert tone="error">{error}</Alert> : null}
      {children}
    </div>
  );
}

/** Grey rows standing in for a list that loads. */
export function ListSkeleton({
  label,
  rows = 5,
  rowClassName = "h-14",
  className,
}: {
  label: string;
  rows?: number;
  /** Classes of each row (its height). */
  rowClassName?: string;
  className?: string;
}) {
  return (
    <div className={cn("space-y-2", className)} aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={cn("rounded-lg", rowClassName)} />
      ))}
    </div>
  );
}

/**
 * The rows of an inbox panel (contact messages, support tickets): skeleton rows while a page
 * loads, an empty inbox once an answer has none, else the rows.
 */
export function InboxRows({
  list,
  loadingLabel,
  emptyTitle,
  emptyText,
  children,
}: {
  list: { status: ListStateProps["status"]; items: readonly unknown[] };
  loadingLabel: string;
  emptyTitle: string;
  emptyText: string;
  children: ReactNode;
}) {
  if (list.status === "loading") return <ListSkeleton label={loadingLabel} className="space-y-3 p-4" rowClassName="h-16 w-full rounded" />;
  if (list.status === "ready" && list.items.length === 0) {
    return (
      <div className="p-4">
        <EmptyState icon={Inbox} title={emptyTitle} text={emptyText} />
      </div>
    );
  }
  return <>{children}</>;
}

/** How many rows a paged list has ("1 entry", "12 entries"), said politely once it has loaded. */
export function ListCount({
  list,
  one,
  many,
  testId,
}: {
  list: { status: ListStateProps["status"]; totalItems: number };
  one: string;
  many: string;
  testId?: string;
}) {
  return (
    <p className="text-sm text-slate-600" aria-live="polite" data-testid={testId}>
      {list.status === "ready" ? `${list.totalItems} ${list.totalItems === 1 ? one : many}` : "\u00a0"}
    </p>
  );
}

type PagedList = { status: ListStateProps["status"]; error: string; items: readonly unknown[] };

/**
 * ListState over a paged list (lib/paged-list.ts). `empty` is what it shows when the list
 * has no rows (keep a fixed one at module scope beside the list); `compact` is a short list
 * inside a panel: two skeleton rows and tighter spacing.
 */
export function PagedListState({
  list,
  empty,
  compact = false,
  ...props
}: { list: PagedList; empty: ReactNode; compact?: boolean } & Omit<
  ListStateProps,
  "status" | "error" | "loaded" | "empty" | "emptyState"
>) {
  const look = compact ? { skeletonRows: 2, className: "space-y-3" } : {};
  return <ListState {...pagedListState(list)} emptyState={empty} {...look} {...props} />;
}

/** ListState's status props for a paged list (lib/paged-list.ts): loaded once it has rows or an answer. */
export function pagedListState(list: PagedList) {
  return {
    status: list.status,
    error: list.error,
    loaded: list.items.length > 0 || list.status === "ready",
    empty: list.items.length === 0,
  };
}
