import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** One block of the Analytics page: a region named by its heading. */
export function Panel({ title, subtitle, children, id }: { title: string; subtitle?: ReactNode; children: ReactNode; id: string }) {
  return (
    <Card role="region" aria-labelledby={id} className="min-w-0 space-y-3">
      <div>
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {subtitle ? <p className="text-sm text-slate-600">{subtitle}</p> : null}
      </div>
      {children}
    </Card>
  );
}

export function ChartSkeleton() {
  return <Skeleton className="h-56 w-full rounded-lg" />;
}
