// The webhooks' dialogs (loaded when first opened): "Add endpoint" (URL, events, description,
// low-balance threshold; then the signing secret, shown this once), the confirmations of
// rotating the secret (then the new one, shown once) and of removing an endpoint.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";
import { KeyedConfirmDialog } from "@/components/ui/keyed-confirm-dialog";
import { SecretShownOnce } from "@/components/ui/secret-shown-once";
import { useKeyedCreate } from "@/components/ui/use-keyed-create";
import type { Webhook, WebhookWithSecret } from "@/features/account/webhooks/api";
import {
  EMPTY_WEBHOOK,
  EVENTS,
  NewWebhookSchema,
  SERVER_FIELDS,
  type NewWebhookInput,
  type NewWebhookOutput,
} from "@/features/account/webhooks/schemas";
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

export function AddWebhookDialog({ onClose }: AddWebhookDialogProps) {
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  return (
    <Dialog
      open
      onClose={onClose}
      className="max-w-lg"
      title={created ? "Endpoint added" : "Add endpoint"}
      description={created ? undefined : "We send the events you choose to this URL, signed with a secret only you and the shop know."}
    >
      {created ? <SecretShown secret={created.secret} onDone={onClose} /> : <NewWebhookForm onCreated={setCreated} onCancel={onClose} />}
    </Dialog>
  );
}

function NewWebhookForm({ onCreated, onCancel }: { onCreated: (created: WebhookWithSecret) => void; onCancel: () => void }) {
  const form = useForm<NewWebhookInput, unknown, NewWebhookOutput>({
    resolver: valibotResolver(NewWebhookSchema),
    defaultValues: EMPTY_WEBHOOK,
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const events = useWatch({ control: form.control, name: "events" });
  const balanceLow = chosen(events, "balance.low");
  const { error, onSubmit } = useKeyedCreate(form, SERVER_FIELDS, addWebhook, onCreated);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField form={form} name="url" id="webhook-url" label="Endpoint URL" hint="Where we send events: an https:// address of yours.">
        {(field) => <Input {...field} type="url" inputMode="url" autoComplete="off" placeholder="https://example.com/webhooks" />}
      </FormField>
      <ChoiceFieldset legend="Events" id="webhook-event" choices={EVENT_CHOICES} register={register("events")} error={errors.events} />
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
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" pending={isSubmitting} pendingText="Adding...">
          <WebhookIcon className="size-4" aria-hidden="true" /> Add endpoint
        </Button>
      </div>
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
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" disabled={pending} onClick={onClose}>
              Cancel
            </Button>
            <Button pending={pending} pendingText="Rotating..." onClick={() => void rotate()}>
              Rotate secret
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

export interface DeleteWebhookDialogProps {
  webhook: Webhook;
  onClose: () => void;
  /** The server's refusal, shown in the panel. */
  onError: (message: string) => void;
}

export function DeleteWebhookDialog({ webhook, onClose, onError }: DeleteWebhookDialogProps) {
  return (
    <KeyedConfirmDialog
      title="Delete this endpoint?"
      description="Nothing more is sent to it, and its delivery history is deleted with it. This cannot be undone."
      confirmText="Delete endpoint"
      pendingText="Deleting..."
      change={(idempotencyKey) => removeWebhook(webhook.id, idempotencyKey)}
      onClose={onClose}
      onError={onError}
    >
      <p className="text-sm break-all text-slate-700">{webhook.url}</p>
    </KeyedConfirmDialog>
  );
}
