// One credit package: what it costs, what it gives, and its Purchase button.
import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { CreditPackage } from "@/features/credits/api";
import { packageTotalCents } from "@/features/credits/packages";
import { cn } from "@/lib/cn";
import { formatCents } from "@/lib/money";

export function PackageCard({
  pkg,
  phase,
  disabled,
  onBuy,
}: {
  pkg: CreditPackage;
  phase: "busy" | "redirecting" | "done" | null;
  disabled: boolean;
  onBuy: () => void;
}) {
  const titleId = `package-${pkg.id}-title`;
  return (
    <section
      aria-labelledby={titleId}
      data-testid={`package-${pkg.id}`}
      className={cn(
        "relative flex flex-col rounded-xl border bg-white p-5 shadow-sm",
        pkg.popular ? "border-primary ring-2 ring-primary/30" : "border-slate-200",
      )}
    >
      {pkg.popular ? (
        <Badge tone="info" className="absolute -top-3 left-5">
          Most Popular
        </Badge>
      ) : null}
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {formatCents(pkg.credits_cents)} Credits
      </h2>
      <p className="mt-2 text-3xl font-bold text-slate-900">{formatCents(pkg.price_cents)}</p>
      <ul className="mt-3 flex-1 space-y-1 text-sm text-slate-600">
        <li>{formatCents(pkg.credits_cents)} in credits</li>
        {pkg.bonus_cents > 0 ? <li className="font-medium text-green-700">+ {formatCents(pkg.bonus_cents)} bonus</li> : null}
        <li>
          You get <strong className="text-slate-900">{formatCents(packageTotalCents(pkg))}</strong> to spend
        </li>
      </ul>
      <Button
        className="mt-4 w-full"
        variant={pkg.popular ? "primary" : "secondary"}
        disabled={disabled && phase === null}
        pending={phase === "busy" || phase === "redirecting"}
        pendingText={phase === "redirecting" ? "Redirecting to checkout..." : "Processing..."}
        onClick={onBuy}
        aria-describedby={titleId}
      >
        {phase === "done" ? (
          <>
            <Check className="size-4" aria-hidden="true" /> Purchased
          </>
        ) : (
          "Purchase"
        )}
      </Button>
    </section>
  );
}
