import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { StatCard } from "@/components/ui/stat-card";
import { cn } from "@/lib/cn";

export interface Stat {
  label: string;
  value: string;
  icon?: LucideIcon;
  /** Set on the value, for tests that read it. */
  testId?: string;
  /** A line under the value. */
  caption?: ReactNode;
  /** A fixed figure that never waits for the data. */
  fixed?: boolean;
}

interface StatGridProps {
  stats: readonly Stat[];
  /** The figures are loading: their cards show skeletons. */
  loading?: boolean;
  /** Names the grid as a section, for screen readers. */
  label?: string;
  className?: string;
  testId?: string;
}

/** A page's figures as a row of stat cards: one column on phones, two, then four. */
export function StatGrid({ stats, loading = false, label, className, testId }: StatGridProps) {
  const cards = stats.map(({ label: name, value, icon: Icon, testId: valueId, caption, fixed }) => (
    <StatCard
      key={name}
      label={name}
      value={value}
      loading={loading && !fixed}
      icon={Icon ? <Icon className="size-5" aria-hidden="true" /> : undefined}
      testId={valueId}
      caption={caption}
    />
  ));
  const classes = cn("grid gap-4 sm:grid-cols-2 lg:grid-cols-4", className);
  return label ? (
    <section aria-label={label} className={classes} data-testid={testId}>
      {cards}
    </section>
  ) : (
    <div className={classes} data-testid={testId}>
      {cards}
    </div>
  );
}
