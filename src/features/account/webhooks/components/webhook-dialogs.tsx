// The webhooks' dialogs (loaded when first opened): "Add endpoint" (URL, events, description,
// low-balance threshold; then the signing secret, shown this once), the confirmations of
// rotating the secret (then the new one, shown once) and of removing an endpoint.
import { Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CreateDialog, type CreateDialogTexts, type CreateFormProps } from "@/components/ui/create-dialog";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";
import { KeyedConfirmDialog, type ConfirmTexts, type KeyedDialogProps } from "@/components/ui/keyed-confirm-dialog";
import { SecretShownOnce } from "@/components/ui/secret-shown-once";
import { useKeyedCreateForm } from "@/components/ui/use-keyed-create";
import type { Webhook, WebhookWithSecret } from "@/features/account/webhooks/api";
import { EMPTY_WEBHOOK, EVENTS, NewWebhookSchema, SERVER_FIELDS } from "@/features/account/webhooks/schemas";
import { addWebhook, removeWebhook, rotateSecret } from "@/features/account/webhooks/stores";
import { ChoiceFieldset, chosen, type Choice } from "@/features/account/components/choice-fieldset";

const EVENT_CHOICES: readonly Choice[] = EVENTS.map(({ event, text }) => ({
  value: event,
  label: <code className="font-mono text-xs font-medium text-slate-900">{event}</code>,
  text,
}));

/** The exact warning beside a new signing secret (issue #18). */
export const SECRET_SHOWN_ONCE = "Copy this signing secret now. You will not be able to see it again.";

/** The secret just made, with Copy and the warning. */
function SecretShown({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <SecretShownOnce
      value={secret}
      warning={SECRET_SHOWN_ONCE}
      id="webhook-secret"
      label="Signing secret"
      copyLabel="Copy the signing secret"
      onDone={onDone}
    />
  );
}

export interface AddWebhookDialogProps {
  onClose: () => void;
}

const ADD_TEXTS: CreateDialogTexts<WebhookWithSecret> = {
  title: "Add endpoint",
  description: "We send the events you choose to this URL, signed with a secret only you and the shop know.",
  createdTitle: () => "Endpoint added",
};

export function AddWebhookDialog({ onClose }: AddWebhookDialogProps) {
  return <CreateDialog onClose={onClose} texts={ADD_TEXTS} Form={NewWebhookForm} Created={AddedSecret} />;
}

function AddedSecret({ created, onDone }: { created: WebhookWithSecret; onDone: () => void }) {
  return <SecretShown secret={created.secret} onDone={onDone} />;
}

function NewWebhookForm({ onCreated, onCancel }: CreateFormProps<WebhookWithSecret>) {
  const { form, error, onSubmit } = useKeyedCreateForm(NewWebhookSchema, EMPTY_WEBHOOK, SERVER_FIELDS, addWebhook, onCreated);
  const { errors, isSubmitting } = form.formState;
  const balanceLow = chosen(useWatch({ control: form.control, name: "events" }), "balance.low");

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField form={form} name="url" id="webhook-url" label="Endpoint URL" hint="Where we send events: an https:// address of yours.">
        {(field) => <Input {...field} type="url" inputMode="url" autoComplete="off" placeholder="https://example.com/webhooks" />}
      </FormField>
      <ChoiceFieldset legend="Events" id="webhook-event" choices={EVENT_CHOICES} register={form.register("events")} error={errors.events} />
      {balanceLow ? (
        <FormField
          form={form}
          name="threshold"
          id="webhook-threshold"
          label="Low-balance threshold in USD"
          hint="balance.low is sent when your balance falls under this amount."
        >
          {(field) => <Input {...field} inputMode="decimal" autoComplete="off" placeholder="10.00" className="w-40" />}
        </FormField>
      ) : null}
      <FormField
        form={form}
        name="description"
        id="webhook-description"
        label="Description (optional)"
        hint="What receives it, to tell your endpoints apart."
      >
        {(field) => <Input {...field} autoComplete="off" maxLength={200} placeholder="Order sync" />}
      </FormField>
      <LiveAlert tone="error">{error}</LiveAlert>
      <DialogActions onCancel={onCancel}>
        <Button type="submit" pending={isSubmitting} pendingText="Adding...">
          <WebhookIcon className="size-4" aria-hidden="true" /> Add endpoint
        </Button>
      </DialogActions>
    </form>
  );
}

export interface RotateSecretDialogProps {
  webhook: Webhook;
  onClose: () => void;
}

export function RotateSecretDialog({ webhook, onClose }: RotateSecretDialogProps) {
  const [pending, setPending] = useState(false);
  const [secret, setSecret] = useState("");
  const [error, setError] = useState("");
  // One Idempotency-Key for this confirmation: a second click repeats the same rotation.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const rotate = async () => {
    setPending(true);
    setError("");
    try {
      setSecret((await rotateSecret(webhook.id, idempotencyKey)).secret);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onClose())}
      className="max-w-lg"
      title={secret ? "New signing secret" : "Rotate the signing secret?"}
      description={
        secret ? undefined : "A new secret signs every delivery from now on; the old one stops at once, so update your receiver right away."
      }
    >
      {secret ? (
        <SecretShown secret={secret} onDone={onClose} />
      ) : (
        <div className="space-y-4">
          <p className="text-sm break-all text-slate-700">{webhook.url}</p>
          <LiveAlert tone="error">{error}</LiveAlert>
          <DialogActions onCancel={onClose} cancelDisabled={pending}>
            <Button pending={pending} pendingText="Rotating..." onClick={() => void rotate()}>
              Rotate secret
            </Button>
          </DialogActions>
        </div>
      )}
    </Dialog>
  );
}

export type DeleteWebhookDialogProps = KeyedDialogProps<{ webhook: Webhook }>;

const DELETE_TEXTS: ConfirmTexts = {
  title: "Delete this endpoint?",
  description: "Nothing more is sent to it, and its delivery history is deleted with it. This cannot be undone.",
  confirmText: "Delete endpoint",
  pendingText: "Deleting...",
};

export function DeleteWebhookDialog({ webhook, ...props }: DeleteWebhookDialogProps) {
  return (
    <KeyedConfirmDialog texts={DELETE_TEXTS} change={(key) => removeWebhook(webhook.id, key)} {...props}>
      <p className="text-sm break-all text-slate-700">{webhook.url}</p>
    </KeyedConfirmDialog>
  );
}
