import type { ReactNode } from "react";

interface PageHeaderProps {
  title: string;
  description: ReactNode;
  /** Buttons or controls at the header's end (Refresh, a period picker). */
  children?: ReactNode;
}

/** A page's h1 with its one-line description, and its actions beside them. */
export function PageHeader({ title, description, children }: PageHeaderProps) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      {children}
    </div>
  );
}
