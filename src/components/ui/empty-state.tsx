import { SearchX, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

interface EmptyStateProps {
  icon?: LucideIcon;
  title: string;
  text?: ReactNode;
  children?: ReactNode;
}

/** What a list shows when it has nothing: a title, a line of text, maybe an action. */
export function EmptyState({ icon: Icon, title, text, children }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      {Icon ? <Icon className="size-8 text-slate-400" aria-hidden="true" /> : null}
      <p className="text-base font-semibold text-slate-900">{title}</p>
      {text ? <p className="text-sm text-slate-600">{text}</p> : null}
      {children ? <div className="mt-2">{children}</div> : null}
    </div>
  );
}

/** What a searchable list says when it has no rows (kept at module scope beside the list). */
export interface EmptyTexts {
  /** The icon of a list that is simply empty (a filtered one shows SearchX). */
  icon: LucideIcon;
  title: string;
  /** The title when filtered, if it differs. */
  filteredTitle?: string;
  filteredText: string;
  emptyText: ReactNode;
  clearLabel?: string;
}

interface FilteredEmptyStateProps {
  texts: EmptyTexts;
  /** The list answers a search or filters: say nothing matched and offer to clear them. */
  filtered: boolean;
  onClear: () => void;
}

/** The empty state of a searchable list: "no matches" with a button that clears the criteria, or "none yet". */
export function FilteredEmptyState({ texts, filtered, onClear }: FilteredEmptyStateProps) {
  const { icon, title, filteredTitle = title, filteredText, emptyText, clearLabel = "Clear filters" } = texts;
  return filtered ? (
    <EmptyState icon={SearchX} title={filteredTitle} text={filteredText}>
      <Button variant="secondary" size="sm" onClick={onClear}>
        {clearLabel}
      </Button>
    </EmptyState>
  ) : (
    <EmptyState icon={icon} title={title} text={emptyText} />
  );
}
