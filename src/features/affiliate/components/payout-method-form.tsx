// The payout method form on /dashboard/affiliate, loaded when the affiliate opens it: free
// text (a PayPal e-mail, a bank note) that shop admins see when they pay a commission.
import { useState, type FormEvent } from "react";
import * as v from "valibot";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { savePayoutMethod, type AffiliateSummary } from "@/features/affiliate/api";
import { PayoutMethodSchema } from "@/features/affiliate/schemas";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { PAYOUT_METHOD_MAX } from "@/lib/catalog";

export function PayoutMethodForm(props: { initial: string; onSaved: (data: AffiliateSummary) => void; onCancel: () => void }) {
  const [value, setValue] = useState(props.initial);
  const [error, setError] = useState("");
  const [failure, setFailure] = useState("");
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure("");
    const parsed = v.safeParse(PayoutMethodSchema, { payout_method: value });
    if (!parsed.success) {
      setError(v.flatten<typeof PayoutMethodSchema>(parsed.issues).nested?.payout_method?.[0] ?? "");
      return;
    }
    setError("");
    setPending(true);
    try {
      props.onSaved(await savePayoutMethod(parsed.output.payout_method));
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields["payout_method"]) setError(fields["payout_method"]);
      else setFailure(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3">
      <Field
        id="payout-method"
        label="Payout method"
        error={error}
        hint={`A PayPal e-mail, or your bank details as you want them (at most ${PAYOUT_METHOD_MAX} characters).`}
      >
        <Textarea
          id="payout-method"
          rows={3}
          value={value}
          maxLength={PAYOUT_METHOD_MAX}
          onChange={(event) => setValue(event.target.value)}
          {...fieldAria("payout-method", error, { hint: true })}
        />
      </Field>
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <div className="flex gap-2">
        <Button type="submit" pending={pending} pendingText="Saving...">
          Save payout method
        </Button>
        <Button type="button" variant="secondary" onClick={props.onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
