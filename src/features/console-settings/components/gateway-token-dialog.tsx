// The gateway tokens' dialogs (loaded when first opened): "New gateway token" (name the
// gateway, then copy the token, shown this once, and the command that starts the gateway on
// its machine) and the confirmation of a revocation.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { KeyRound } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import {
  GatewayTokenNameSchema,
  type GatewayTokenNameInput,
  type GatewayTokenNameOutput,
} from "@/features/console-settings/components/gateway-token-schema";
import {
  createGatewayToken,
  gatewayCommand,
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

function NameForm({ onCreated, onCancel }: { onCreated: (made: CreatedGatewayToken) => void; onCancel: () => void }) {
  const {
    register,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<GatewayTokenNameInput, unknown, GatewayTokenNameOutput>({
    resolver: valibotResolver(GatewayTokenNameSchema),
    defaultValues: { name: "" },
  });
  const [error, setError] = useState("");
  const nameError = errors.name?.message;

  const submit = async ({ name }: GatewayTokenNameOutput) => {
    setError("");
    try {
      onCreated(await createGatewayToken(name));
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields["name"]) setFieldError("name", { message: fields["name"].replace(/\.$/, "") });
      else setError(errorMessage(err));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // The dialog is rendered in a portal, but React sends its submit up to the settings form.
    event.stopPropagation();
    setError("");
    void handleSubmit(submit)(event);
  };

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
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
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
    <div className="space-y-4">
      <Alert tone="success">Token created. Copy it now: it cannot be shown again.</Alert>
      <div className="space-y-1">
        <label htmlFor="gateway_token_value" className="block text-sm font-medium text-slate-700">
          Token
        </label>
        <div className="flex min-w-0 items-center gap-2">
          <Input
            id="gateway_token_value"
            readOnly
            value={created.token}
            className="min-w-0 flex-1 font-mono text-xs"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton value={created.token} label="Copy the gateway token" className="shrink-0" />
        </div>
      </div>
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
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

export interface RevokeGatewayTokenDialogProps {
  token: GatewayToken;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

export function RevokeGatewayTokenDialog({ token, pending, onCancel, onConfirm }: RevokeGatewayTokenDialogProps) {
  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onCancel())}
      title={`Revoke the gateway token "${token.name}"?`}
      description="The gateway using it is refused from its next call to the shop, within a second: it cuts every tunnel and stops serving. This cannot be undone: it needs a new token to follow the shop again."
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" disabled={pending} onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" pending={pending} pendingText="Revoking..." onClick={onConfirm}>
          Revoke token
        </Button>
      </div>
    </Dialog>
  );
}
