// The New Ticket form (spec 4, 5): subject, priority (medium by default) and the first
// message, checked on submit, sent as one call; the server's messages land on the fields.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { PRIORITY_LABELS, TICKET_PRIORITIES } from "@/components/support/format";
import { EMPTY_TICKET, NewTicketSchema, type NewTicketInput, type NewTicketOutput } from "@/features/support/schemas";
import { openTicket } from "@/features/support/stores";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { SUPPORT_LIMITS } from "@/lib/catalog";
import { useHydrated } from "@/lib/use-hydrated";

interface NewTicketFormProps {
  onDone: () => void;
  onCancel: () => void;
}

export function NewTicketForm({ onDone, onCancel }: NewTicketFormProps) {
  const hydrated = useHydrated();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<NewTicketInput, unknown, NewTicketOutput>({
    resolver: valibotResolver(NewTicketSchema),
    defaultValues: EMPTY_TICKET,
    mode: "onSubmit",
  });
  const {
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { isSubmitting },
  } = form;

  useEffect(() => setFocus("subject"), [setFocus]);

  const onSubmit = async (values: NewTicketOutput) => {
    setServerError(null);
    try {
      await openTicket(values);
      reset(EMPTY_TICKET);
      onDone();
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        if (field in EMPTY_TICKET) setError(field as keyof NewTicketInput, { message });
      }
      setServerError(errorMessage(err));
    }
  };

  return (
    <Card>
      <h2 id="new-ticket-heading" className="mb-4 text-lg font-semibold text-slate-900">
        New Ticket
      </h2>
      <form
        noValidate
        aria-labelledby="new-ticket-heading"
        onSubmit={handleSubmit(onSubmit)}
        className="space-y-4"
        aria-busy={isSubmitting}
      >
        <div aria-live="polite">{serverError ? <Alert tone="error">{serverError}</Alert> : null}</div>
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <FormField form={form} name="subject" id="ticket-subject" label="Subject">
            {(field) => <Input placeholder="Brief description of your issue" maxLength={SUPPORT_LIMITS.subject_max} {...field} />}
          </FormField>
          <FormField form={form} name="priority" id="ticket-priority" label="Priority">
            {(field) => (
              <Select {...field}>
                {TICKET_PRIORITIES.map((priority) => (
                  <option key={priority} value={priority}>
                    {PRIORITY_LABELS[priority]}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        </div>
        <FormField form={form} name="message" id="ticket-message" label="Message">
          {(field) => <Textarea rows={5} maxLength={SUPPORT_LIMITS.message_max} placeholder="Describe your issue in detail" {...field} />}
        </FormField>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Creating...">
            Create Ticket
          </Button>
          <Button
            variant="secondary"
            disabled={isSubmitting}
            onClick={() => {
              reset(EMPTY_TICKET);
              setServerError(null);
              onCancel();
            }}
          >
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
