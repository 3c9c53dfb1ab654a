// The API keys' dialogs (loaded when first opened): "Create API key" (name, scopes, expiry,
// IP allowlist, spend cap; then the key, shown this once), a key's spend cap changed later,
// and the confirmation of a revocation.
import { KeyRound } from "lucide-react";
import { useWatch, type FieldValues, type Path, type UseFormReturn } from "react-hook-form";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CreateDialog, type CreateDialogTexts, type CreateFormProps } from "@/components/ui/create-dialog";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { KeyedConfirmDialog, type ConfirmTexts, type KeyedDialogProps } from "@/components/ui/keyed-confirm-dialog";
import { SecretShownOnce } from "@/components/ui/secret-shown-once";
import { useKeyedCreateForm } from "@/components/ui/use-keyed-create";
import type { ApiKey, CreatedApiKey } from "@/features/account/api-keys/api";
import {
  capInput,
  EMPTY_KEY,
  localDate,
  NewApiKeySchema,
  SCOPES,
  SERVER_FIELDS,
  SpendCapSchema,
  type SpendCapOutput,
} from "@/features/account/api-keys/schemas";
import { spend } from "@/features/account/api-keys/format";
import { changeSpendCap, createKey, revokeKey } from "@/features/account/api-keys/stores";
import { ChoiceFieldset, chosen, type Choice } from "@/features/account/components/choice-fieldset";

const SCOPE_CHOICES: readonly Choice[] = SCOPES.map(({ scope, label, text }) => ({
  value: scope,
  label: <span className="font-medium text-slate-900">{label}</span>,
  text,
}));

/** The exact warning beside a new key (issue #18). */
export const SHOWN_ONCE = "Copy this key now. You will not be able to see it again.";

export interface CreateApiKeyDialogProps {
  onClose: () => void;
}

const CREATE_TEXTS: CreateDialogTexts<CreatedApiKey> = {
  title: "Create API key",
  description: "A key lets your programs use the API as you, within the scopes and limits you set here.",
  createdTitle: (created) => `API key “${created.api_key.name}”`,
};

export function CreateApiKeyDialog({ onClose }: CreateApiKeyDialogProps) {
  return <CreateDialog onClose={onClose} texts={CREATE_TEXTS} Form={NewKeyForm} Created={CreatedKey} />;
}

function NewKeyForm({ onCreated, onCancel }: CreateFormProps<CreatedApiKey>) {
  const { form, error, onSubmit } = useKeyedCreateForm(NewApiKeySchema, EMPTY_KEY, SERVER_FIELDS, createKey, onCreated);
  const { errors, isSubmitting } = form.formState;
  const purchase = chosen(useWatch({ control: form.control, name: "scopes" }), "purchase");

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField form={form} name="name" id="api-key-name" label="Name" hint="What uses it, to tell your keys apart: 1-100 characters.">
        {(field) => <Input {...field} autoComplete="off" maxLength={100} placeholder="Inventory sync" />}
      </FormField>
      <ChoiceFieldset legend="Scopes" id="api-key-scope" choices={SCOPE_CHOICES} register={form.register("scopes")} error={errors.scopes} />
      <FormField
        form={form}
        name="expires"
        id="api-key-expires"
        label="Expires (optional)"
        hint="The key stops working at the end of this day. Leave it empty for a key that never expires."
      >
        {(field) => <Input {...field} type="date" min={localDate()} className="w-auto" />}
      </FormField>
      <FormField
        form={form}
        name="ip_allowlist"
        id="api-key-ip-allowlist"
        label="IP allowlist (optional)"
        hint="One per line: addresses (203.0.113.7, 2001:db8::1) or CIDR ranges (203.0.113.0/24) the key works from. Leave it empty to allow any address."
      >
        {(field) => (
          <Textarea
            {...field}
            rows={3}
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            className="font-mono"
            placeholder={"203.0.113.7\n198.51.100.0/24"}
          />
        )}
      </FormField>
      {/* Always shown, so the cap is found; it applies once the key may buy (issue #28). */}
      <CapField form={form} disabled={!purchase} />
      <LiveAlert tone="error">{error}</LiveAlert>
      <DialogActions onCancel={onCancel}>
        <Button type="submit" pending={isSubmitting} pendingText="Creating...">
          <KeyRound className="size-4" aria-hidden="true" /> Create API key
        </Button>
      </DialogActions>
    </form>
  );
}

/** The monthly spend cap, on the new-key form and in "Spend cap" (one text each, dollars). */
function CapField<T extends { spend_cap: string }, O extends FieldValues>({
  form,
  disabled = false,
}: {
  form: UseFormReturn<T, unknown, O>;
  disabled?: boolean;
}) {
  return (
    <FormField
      form={form}
      name={"spend_cap" as Path<T>}
      id="api-key-spend-cap"
      label="Monthly spend cap in USD (optional)"
      hint={
        disabled
          ? "Tick Purchase to let this key buy: then you can cap what it spends each calendar month (UTC)."
          : "What purchases and renewals with this key may spend each calendar month (UTC). Leave it empty for no cap."
      }
    >
      {(field) => <Input {...field} disabled={disabled} inputMode="decimal" autoComplete="off" placeholder="50.00" className="w-40" />}
    </FormField>
  );
}

export interface SpendCapDialogProps {
  apiKey: ApiKey;
  onClose: () => void;
}

/** "Spend cap": a key's monthly cap changed later (empty removes it); this month's spend beside it. */
export function SpendCapDialog({ apiKey, onClose }: SpendCapDialogProps) {
  const change = (body: SpendCapOutput, idempotencyKey: string) => changeSpendCap(apiKey.id, body.spend_cap_cents, idempotencyKey);
  const defaults = { spend_cap: capInput(apiKey.spend_cap_cents) };
  const { form, error, onSubmit } = useKeyedCreateForm(SpendCapSchema, defaults, { spend_cap_cents: "spend_cap" }, change, onClose);
  return (
    <Dialog
      open
      onClose={onClose}
      className="max-w-md"
      title={`Spend cap of “${apiKey.name}”`}
      description={`Spent this month: ${spend(apiKey)}. A cap below that stops the key's purchases until next month.`}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <CapField form={form} />
        <LiveAlert tone="error">{error}</LiveAlert>
        <DialogActions onCancel={onClose}>
          <Button type="submit" pending={form.formState.isSubmitting} pendingText="Saving...">
            Save cap
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <SecretShownOnce
      value={created.key}
      warning={SHOWN_ONCE}
      id="api-key-value"
      label="Your new API key"
      copyLabel="Copy the API key"
      onDone={onDone}
    />
  );
}

export type RevokeApiKeyDialogProps = KeyedDialogProps<{ apiKey: ApiKey }>;

const revokeTexts = (apiKey: ApiKey): ConfirmTexts => ({
  title: `Revoke API key “${apiKey.name}”?`,
  description: "Programs using it stop working at once. This cannot be undone: they need a new key to use the API again.",
  confirmText: "Revoke key",
  pendingText: "Revoking...",
});

export function RevokeApiKeyDialog({ apiKey, ...props }: RevokeApiKeyDialogProps) {
  return <KeyedConfirmDialog texts={revokeTexts(apiKey)} change={(key) => revokeKey(apiKey.id, key)} {...props} />;
}
