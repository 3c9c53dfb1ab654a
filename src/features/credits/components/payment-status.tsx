// The state of the payment being followed: checking, pending, paid, failed or canceled.
import { Loader2 } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { paymentView } from "@/features/credits/packages";
import type { PaymentTarget } from "@/features/credits/use-payment";
import type { PaymentRecord } from "@/lib/pocketbase-types";

export function PaymentStatus({
  target,
  payment,
  error,
  onDismiss,
}: {
  target: PaymentTarget;
  payment: PaymentRecord | null;
  error: string;
  onDismiss: () => void;
}) {
  const dismiss = (
    <button type="button" className="text-sm font-medium underline" onClick={onDismiss}>
      Dismiss
    </button>
  );
  if (!payment) {
    return error ? (
      <Alert tone="error">
        <p>{error}</p>
        {dismiss}
      </Alert>
    ) : (
      <Alert tone="info">
        <p className="flex items-center gap-2">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Checking your payment...
        </p>
      </Alert>
    );
  }
  const view = paymentView(payment, target.canceled);
  return (
    <Alert tone={view.tone}>
      <div data-testid="payment-status" data-phase={view.phase} className="space-y-1">
        <p className="flex items-center gap-2 font-semibold">
          {view.phase === "pending" ? <Loader2 className="size-4 animate-spin" aria-hidden="true" /> : null}
          {view.title}
        </p>
        <p>{view.text}</p>
        {error && view.phase === "pending" ? <p>Could not refresh the payment: {error}</p> : null}
        {view.settled ? dismiss : null}
      </div>
    </Alert>
  );
}
