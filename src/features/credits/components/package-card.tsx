// One credit package: its name, one plain line of what you pay and get, and its Purchase button.
import { Check } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { CreditPackage } from "@/features/credits/api";
import { packageLine, packageName } from "@/features/credits/packages";
import { cn } from "@/lib/cn";

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
        {packageName(pkg)}
      </h2>
      <p className="mt-2 flex-1 text-slate-700" data-testid="credit-line">
        {packageLine(pkg)}
      </p>
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
