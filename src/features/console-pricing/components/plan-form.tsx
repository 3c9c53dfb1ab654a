// The plan modal's form (admin spec 5): name, type, price in dollars (saved as cents),
// features one a line, the limits its proxies get (a monthly bandwidth quota in GB and a
// cap on connections at once, 0 = unlimited), popular (off) and active (on). After a save the success message
// shows and the modal closes 2 seconds later; the server's messages land on the fields.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, SelectFormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import {
  EMPTY_PLAN,
  PLACEHOLDER_LIST,
  PlanSchema,
  SERVER_FIELDS,
  planToInput,
  type PlanInput,
  type PlanOutput,
} from "@/features/console-pricing/schemas";
import { savePlan } from "@/features/console-pricing/stores";
import { PROXY_TYPE_LABELS, PROXY_TYPES } from "@/lib/catalog";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import type { ConsolePlan } from "@/features/console-pricing/api";

/** How long the success message stays before the modal closes (spec 9). */
export const CLOSE_AFTER_SAVE_MS = 2000;

interface PlanFormProps {
  plan: ConsolePlan | null;
  onClose: () => void;
}

export function PlanForm({ plan, onClose }: PlanFormProps) {
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const close = useRef(onClose);
  const form = useForm<PlanInput, unknown, PlanOutput>({
    resolver: valibotResolver(PlanSchema),
    defaultValues: plan ? planToInput(plan) : EMPTY_PLAN,
    mode: "onSubmit",
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  useEffect(() => {
    close.current = onClose;
  });

  // After a save the message stays 2 seconds, then the modal closes.
  useEffect(() => {
    if (!saved) return;
    const timer = window.setTimeout(() => close.current(), CLOSE_AFTER_SAVE_MS);
    return () => window.clearTimeout(timer);
  }, [saved]);

  const onSubmit = async (values: PlanOutput) => {
    setServerError(null);
    try {
      await savePlan(plan?.id ?? null, values);
      setSaved(plan ? "Pricing plan updated successfully" : "Pricing plan created successfully");
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        const name = SERVER_FIELDS[field];
        if (name) setError(name, { message });
      }
      setServerError(errorMessage(err));
    }
  };

  const busy = isSubmitting || saved !== null;

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4" aria-busy={isSubmitting}>
      <div aria-live="polite">
        {saved ? <Alert tone="success">{saved}</Alert> : null}
        {serverError ? <Alert tone="error">{serverError}</Alert> : null}
      </div>
      <fieldset disabled={saved !== null} className="space-y-4">
        <FormField form={form} name="name" id="plan-name" label="Name">
          {(field) => <Input maxLength={100} autoComplete="off" {...field} />}
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectFormField form={form} name="type" id="plan-type" label="Type" values={PROXY_TYPES} labels={PROXY_TYPE_LABELS} />
          <FormField form={form} name="price" id="plan-price" label="Price per proxy (USD)">
            {(field) => <Input type="number" inputMode="decimal" step="0.01" min="0.01" placeholder="2.50" {...field} />}
          </FormField>
        </div>
        <FormField form={form} name="features" id="plan-features" label="Features (one per line)">
          {(field) => <Textarea rows={5} {...field} />}
        </FormField>
        <p className="-mt-2 text-sm text-slate-600">A number can name its fact, filled in on the pricing page: {PLACEHOLDER_LIST}.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField form={form} name="bandwidth_quota_gb" id="plan-quota" label="Bandwidth quota (GB / month, 0 = unlimited)">
            {(field) => <Input type="number" inputMode="numeric" min="0" max="1000000" step="1" {...field} />}
          </FormField>
          <FormField form={form} name="max_connections" id="plan-max-connections" label="Max concurrent connections (0 = unlimited)">
            {(field) => <Input type="number" inputMode="numeric" min="0" max="100000" step="1" {...field} />}
          </FormField>
        </div>
        <p className="-mt-2 text-sm text-slate-600">Each proxy bought on this plan gets these limits; renewals keep them.</p>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="size-4 rounded border-slate-300 accent-primary" {...register("popular")} />
            Popular
          </label>
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="size-4 rounded border-slate-300 accent-primary" {...register("active")} />
            Active (shown on the public pages)
          </label>
        </div>
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          {saved ? "Close" : "Cancel"}
        </Button>
        <Button type="submit" pending={isSubmitting} pendingText="Saving..." disabled={busy}>
          {plan ? "Update Plan" : "Create Plan"}
        </Button>
      </div>
    </form>
  );
}
