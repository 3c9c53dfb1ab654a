import { useId, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

interface StatCardProps {
  label: string;
  value: string;
  loading?: boolean;
  icon?: ReactNode | undefined;
  /** Set on the value, for tests that read it. */
  testId?: string | undefined;
  /** A line under the value. */
  caption?: ReactNode | undefined;
}

/** One figure with its label (spec 3, "Stat card props"), a skeleton while it loads. */
export function StatCard({ label, value, loading = false, icon, testId, caption }: StatCardProps) {
  const id = useId();
  return (
    <Card role="group" aria-labelledby={id} className="flex items-start justify-between gap-3">
      <div className="min-w-0">
        <p id={id} className="text-sm text-slate-500">
          {label}
        </p>
        {loading ? (
          <Skeleton className="mt-2 h-7 w-20" />
        ) : (
          <p className="mt-1 text-2xl font-bold text-slate-900" data-testid={testId}>
            {value}
          </p>
        )}
        {caption ? <p className="mt-1 text-xs">{caption}</p> : null}
      </div>
      {icon ? <span className="rounded-lg bg-primary/10 p-2 text-primary">{icon}</span> : null}
    </Card>
  );
}
