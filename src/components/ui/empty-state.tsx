import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

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
