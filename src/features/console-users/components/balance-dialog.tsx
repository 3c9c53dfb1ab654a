import { valibotResolver } from "@hookform/resolvers/valibot";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import { adjustBalance, type AdminUser } from "@/features/console-users/api";
import { BalanceSchema, EMPTY_BALANCE, type BalanceInput, type BalanceOutput } from "@/features/console-users/schemas";

interface BalanceDialogProps {
  user: AdminUser | null;
  onClose: () => void;
  /** Called with the spec's success text once the server has the change. */
  onDone: (message: string) => void;
}

/** Credit or debit a user's balance (admin spec 2, "balance modal"). */
export function BalanceDialog({ user, onClose, onDone }: BalanceDialogProps) {
  return (
    <Dialog
      open={user !== null}
      onClose={onClose}
      title="Adjust balance"
      description={user ? `${user.email}: ${formatCents(user.balance_cents)}` : ""}
    >
      {user ? <BalanceForm key={user.id} user={user} onClose={onClose} onDone={onDone} /> : null}
    </Dialog>
  );
}

function BalanceForm({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: (message: string) => void }) {
  const {
    register,
    handleSubmit,
    formState: { isValid, errors },
  } = useForm<BalanceInput, unknown, BalanceOutput>({
    resolver: valibotResolver(BalanceSchema),
    defaultValues: EMPTY_BALANCE,
    mode: "onChange",
  });
  const [pending, setPending] = useState<"CREDIT" | "DEBIT" | null>(null);
  const [error, setError] = useState("");
  // One Idempotency-Key per attempt: a retry of the same change (after a failure) sends the
  // same key, so it can never apply twice; any other change gets a new one.
  const attempt = useRef<{ signature: string; key: string } | null>(null);

  const send = async (type: "CREDIT" | "DEBIT", { amount, description }: BalanceOutput) => {
    if (pending) return;
    const body = { transaction_type: type, amount_cents: amount, description };
    const signature = JSON.stringify(body);
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: newIdempotencyKey() };
    setPending(type);
    setError("");
    try {
      await adjustBalance(user.id, body, attempt.current.key);
      attempt.current = null;
      onDone(
        type === "CREDIT"
          ? `Successfully credited ${formatCents(amount)} to ${user.email}`
          : `Successfully debited ${formatCents(amount)} from ${user.email}`,
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(null);
    }
  };
  const submit = (type: "CREDIT" | "DEBIT") => handleSubmit((values) => send(type, values));

  return (
    <form onSubmit={(e) => void submit("CREDIT")(e)} className="space-y-4" noValidate>
      <Field id="balance-amount" label="Amount (USD)" error={errors.amount?.message}>
        <Input
          id="balance-amount"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          placeholder="0.00"
          required
          {...fieldAria("balance-amount", errors.amount?.message)}
          {...register("amount")}
        />
      </Field>
      <Field id="balance-description" label="Description" error={errors.description?.message}>
        <Input
          id="balance-description"
          maxLength={500}
          placeholder="Reason shown in the customer's transaction history"
          required
          {...fieldAria("balance-description", errors.description?.message)}
          {...register("description")}
        />
      </Field>
      <LiveAlert tone="error">{error}</LiveAlert>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={pending !== null}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={!isValid || pending === "CREDIT"}
          pending={pending === "DEBIT"}
          pendingText="Debiting..."
          onClick={(e) => void submit("DEBIT")(e)}
        >
          Debit
        </Button>
        <Button type="submit" disabled={!isValid || pending === "DEBIT"} pending={pending === "CREDIT"} pendingText="Crediting...">
          Credit
        </Button>
      </div>
    </form>
  );
}
