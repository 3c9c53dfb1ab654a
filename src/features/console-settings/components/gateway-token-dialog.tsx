// The gateway tokens' dialogs (loaded when first opened): "New gateway token" (name the
// gateway, then copy the token, shown this once, and the command that starts the gateway on
// its machine) and the confirmation of a revocation.
import { KeyRound } from "lucide-react";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { CreateDialog, type CreateDialogTexts, type CreateFormProps } from "@/components/ui/create-dialog";
import { DialogActions } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { KeyedConfirmDialog, type ConfirmTexts, type KeyedDialogProps } from "@/components/ui/keyed-confirm-dialog";
import { SecretShownOnce } from "@/components/ui/secret-shown-once";
import { useKeyedCreateForm } from "@/components/ui/use-keyed-create";
import { GatewayTokenNameSchema, type GatewayTokenNameOutput } from "@/features/console-settings/components/gateway-token-schema";
import {
  createGatewayToken,
  gatewayCommand,
  revokeGatewayToken,
  type CreatedGatewayToken,
  type GatewayToken,
} from "@/features/console-settings/components/gateway-tokens";

export interface GatewayTokenDialogProps {
  open: boolean;
  onClose: () => void;
}

const NEW_TEXTS: CreateDialogTexts<CreatedGatewayToken> = {
  title: "New gateway token",
  description:
    "A gateway on another machine follows the shop with its own token: it reads the proxies' credentials and writes their usage, nothing else.",
  createdTitle: (created) => `Gateway token "${created.name}"`,
};

export function GatewayTokenDialog({ open, onClose }: GatewayTokenDialogProps) {
  return <CreateDialog open={open} onClose={onClose} texts={NEW_TEXTS} Form={NameForm} Created={CreatedToken} />;
}

/** The server's field messages end with a period; the form's own do not. */
const withoutPeriod = (message: string) => message.replace(/\.$/, "");

const createToken = ({ name }: GatewayTokenNameOutput) => createGatewayToken(name);

function NameForm({ onCreated, onCancel }: CreateFormProps<CreatedGatewayToken>) {
  const { form, error, onSubmit } = useKeyedCreateForm(
    GatewayTokenNameSchema,
    { name: "" },
    { name: "name" },
    createToken,
    onCreated,
    withoutPeriod,
  );
  const nameError = form.formState.errors.name?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field id="gateway_token_name" label="Gateway name" hint="1-100 characters, unique, e.g. eu-1." error={nameError}>
        <Input
          id="gateway_token_name"
          autoComplete="off"
          spellCheck={false}
          placeholder="eu-1"
          {...fieldAria("gateway_token_name", nameError, { hint: true })}
          {...form.register("name")}
        />
      </Field>
      <LiveAlert tone="error">{error}</LiveAlert>
      <DialogActions onCancel={onCancel}>
        <Button type="submit" pending={form.formState.isSubmitting} pendingText="Creating...">
          <KeyRound className="size-4" aria-hidden="true" /> Create token
        </Button>
      </DialogActions>
    </form>
  );
}

function CreatedToken({ created, onDone }: { created: CreatedGatewayToken; onDone: () => void }) {
  const command = gatewayCommand(created.pb_url || window.location.origin);
  return (
    <SecretShownOnce
      value={created.token}
      warning="Token created. Copy it now: it cannot be shown again."
      tone="success"
      id="gateway_token_value"
      label="Token"
      copyLabel="Copy the gateway token"
      onDone={onDone}
    >
      <div className="space-y-1">
        <p id="gateway_command_label" className="text-sm font-medium text-slate-700">
          On the gateway's machine, save the token in <code className="text-slate-900">gateway.token</code> and run:
        </p>
        <div className="flex min-w-0 items-start gap-2">
          <code
            aria-labelledby="gateway_command_label"
            className="min-w-0 flex-1 rounded-md bg-slate-900 px-3 py-2 font-mono text-xs break-all text-slate-100"
          >
            {command}
          </code>
          <CopyButton value={command} label="Copy the gateway command" className="shrink-0" />
        </div>
        <p className="text-sm text-slate-600">
          Change the ports to yours, or leave one out to turn that listener off. Revoking the token here cuts the gateway off at its next
          call.
        </p>
      </div>
    </SecretShownOnce>
  );
}

export type RevokeGatewayTokenDialogProps = KeyedDialogProps<{ token: GatewayToken }>;

const revokeTexts = (token: GatewayToken): ConfirmTexts => ({
  title: `Revoke the gateway token "${token.name}"?`,
  description:
    "The gateway using it is refused from its next call to the shop, within a second: it cuts every tunnel and stops serving. This cannot be undone: it needs a new token to follow the shop again.",
  confirmText: "Revoke token",
  pendingText: "Revoking...",
});

export function RevokeGatewayTokenDialog({ token, ...props }: RevokeGatewayTokenDialogProps) {
  return <KeyedConfirmDialog texts={revokeTexts(token)} change={() => revokeGatewayToken(token.id)} {...props} />;
}
