// Assigned in the Edit dialog (issue #28): an Available proxy is given to a customer, found by
// e-mail, for a term with an order at the price the admin types ($0 included); a customer's
// proxy can be swapped to another exit of its type and place, keeping its credentials.
import { useId, useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { AdminProxyDetail } from "@/features/console-proxies/api";
import { assignTo, failureMessage, NoCustomerError, swapExit } from "@/features/console-proxies/stores";

/** Dollars as typed ("4.50") to whole cents, or NaN. */
function cents(text: string): number {
  const value = text.trim();
  return /^\d{1,5}(\.\d{1,2})?$/.test(value) ? Math.round(Number(value) * 100) : NaN;
}

export function AssignPanel({ detail, onDone }: { detail: AdminProxyDetail; onDone: () => void }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [price, setPrice] = useState("0.00");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const owned = detail.status === "ASSIGNED";

  const run = async (action: () => Promise<void>, fallback: string) => {
    setPending(true);
    setError("");
    try {
      await action();
      onDone();
    } catch (err) {
      setError(err instanceof NoCustomerError ? err.message : failureMessage(err, fallback));
    } finally {
      setPending(false);
    }
  };

  if (owned) {
    return (
      <div className="space-y-2 rounded-lg border border-slate-200 p-4" data-testid="swap-panel">
        <p className="text-sm text-slate-600">
          Swap gives this proxy the exit of an Available one of its type and place; the customer keeps the username and password.
        </p>
        <LiveAlert tone="error">{error}</LiveAlert>
        <Button
          type="button"
          variant="secondary"
          pending={pending}
          pendingText="Swapping..."
          onClick={() => void run(() => swapExit(detail), "Failed to swap the exit")}
        >
          Swap exit
        </Button>
      </div>
    );
  }

  const priceCents = cents(price);
  const assign = () => {
    if (!email.trim()) return setError("Enter the customer's e-mail.");
    if (Number.isNaN(priceCents)) return setError("Price must be an amount in dollars, like 0 or 4.50.");
    void run(() => assignTo(detail, email, priceCents), "Failed to assign proxy");
  };
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 p-4" data-testid="assign-panel">
      <p className="text-sm text-slate-600">
        Assign gives this proxy to a customer for 30 days with an order at the price below, taken from their balance; $0 charges nothing.
      </p>
      <LiveAlert tone="error">{error}</LiveAlert>
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_9rem]">
        <Field id={`${id}-email`} label="Customer e-mail">
          <Input id={`${id}-email`} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field id={`${id}-price`} label="Price (USD)">
          <Input id={`${id}-price`} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
        </Field>
      </div>
      <Button type="button" pending={pending} pendingText="Assigning..." onClick={assign}>
        Assign
      </Button>
    </div>
  );
}
