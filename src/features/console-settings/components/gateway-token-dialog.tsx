// The gateway tokens' dialogs (loaded when first opened): "New gateway token" (name the
// gateway, then copy the token, shown this once, and the command that starts the gateway on
// its machine) and the confirmation of a revocation.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { KeyedConfirmDialog } from "@/components/ui/keyed-confirm-dialog";
import { SecretShownOnce } from "@/components/ui/secret-shown-once";
import { useKeyedCreate } from "@/components/ui/use-keyed-create";
import {
  GatewayTokenNameSchema,
  type GatewayTokenNameInput,
  type GatewayTokenNameOutput,
} from "@/features/console-settings/components/gateway-token-schema";
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

export function GatewayTokenDialog({ open, onClose }: GatewayTokenDialogProps) {
  const [created, setCreated] = useState<CreatedGatewayToken | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      className="max-w-lg"
      title={created ? `Gateway token "${created.name}"` : "New gateway token"}
      description={
        created
          ? undefined
          : "A gateway on another machine follows the shop with its own token: it reads the proxies' credentials and writes their usage, nothing else."
      }
    >
      {created ? <CreatedToken created={created} onDone={close} /> : <NameForm onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}

/** The server's field messages end with a period; the form's own do not. */
const withoutPeriod = (message: string) => message.replace(/\.$/, "");

function NameForm({ onCreated, onCancel }: { onCreated: (made: CreatedGatewayToken) => void; onCancel: () => void }) {
  const form = useForm<GatewayTokenNameInput, unknown, GatewayTokenNameOutput>({
    resolver: valibotResolver(GatewayTokenNameSchema),
    defaultValues: { name: "" },
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;
  const { error, onSubmit } = useKeyedCreate(form, { name: "name" }, ({ name }) => createGatewayToken(name), onCreated, withoutPeriod);
  const nameError = errors.name?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field id="gateway_token_name" label="Gateway name" hint="1-100 characters, unique, e.g. eu-1." error={nameError}>
        <Input
          id="gateway_token_name"
          autoComplete="off"
          spellCheck={false}
          placeholder="eu-1"
          {...fieldAria("gateway_token_name", nameError, { hint: true })}
          {...register("name")}
        />
      </Field>
      <LiveAlert tone="error">{error}</LiveAlert>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" pending={isSubmitting} pendingText="Creating...">
          <KeyRound className="size-4" aria-hidden="true" /> Create token
        </Button>
      </div>
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

export interface RevokeGatewayTokenDialogProps {
  token: GatewayToken;
  onClose: () => void;
  /** The server's refusal, shown in the panel. */
  onError: (message: string) => void;
}

export function RevokeGatewayTokenDialog({ token, onClose, onError }: RevokeGatewayTokenDialogProps) {
  return (
    <KeyedConfirmDialog
      title={`Revoke the gateway token "${token.name}"?`}
      description="The gateway using it is refused from its next call to the shop, within a second: it cuts every tunnel and stops serving. This cannot be undone: it needs a new token to follow the shop again."
      confirmText="Revoke token"
      pendingText="Revoking..."
      change={() => revokeGatewayToken(token.id)}
      onClose={onClose}
      onError={onError}
    />
  );
}
