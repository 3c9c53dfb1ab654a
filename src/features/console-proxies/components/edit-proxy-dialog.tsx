// The edit modal (admin spec "Edit modal"): titled with host:port; Host/IP Address, Port,
// Username, Password (plain text) and Status; Cancel / "Update Proxy". The password is read
// when the modal opens (the list never carries it). Status changes follow the server's
// rules, explained under the select.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { LiveAlert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField, SelectFormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import { fetchProxy, type AdminProxy, type AdminProxyDetail } from "@/features/console-proxies/api";
import {
  DEFAULT_PORT,
  EditSchema,
  PROXY_STATUSES,
  STATUS_LABELS,
  type EditInput,
  type EditOutput,
} from "@/features/console-proxies/schemas";
import { failureMessage, saveProxy } from "@/features/console-proxies/stores";
import { endpoint } from "@/lib/endpoint";

interface EditProxyDialogProps {
  proxy: AdminProxy | null;
  onClose: () => void;
}

export function EditProxyDialog({ proxy, onClose }: EditProxyDialogProps) {
  return (
    <Dialog
      open={!!proxy}
      onClose={onClose}
      title={proxy ? endpoint(proxy) : ""}
      description="Edit this proxy's endpoint, credentials or status."
    >
      {proxy ? <EditLoader key={proxy.id} proxy={proxy} onClose={onClose} /> : null}
    </Dialog>
  );
}

function EditLoader({ proxy, onClose }: { proxy: AdminProxy; onClose: () => void }) {
  const [state, setState] = useState<{ detail: AdminProxyDetail | null; error: string }>({ detail: null, error: "" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    fetchProxy(proxy.id, controller.signal).then(
      (detail) => setState({ detail, error: "" }),
      (err: unknown) => {
        if (!controller.signal.aborted && !isAbort(err)) setState({ detail: null, error: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [proxy.id, attempt]);

  if (state.error)
    return (
      <LoadError
        message={state.error}
        onRetry={() => {
          setState({ detail: null, error: "" });
          setAttempt((n) => n + 1);
        }}
      />
    );
  if (!state.detail) {
    return (
      <div className="space-y-3" aria-busy="true" aria-label="Loading proxy">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-10 rounded-md" />
        ))}
      </div>
    );
  }
  return <EditForm detail={state.detail} onClose={onClose} />;
}

function statusHint(detail: AdminProxyDetail, status: ProxyStatus): { tone: "info" | "warning"; text: string } | null {
  const owner = detail.owner_email || (detail.assigned_to_user_id ? "a customer" : "");
  if (status === detail.status) {
    return owner ? { tone: "info", text: `Assigned to ${owner}.` } : null;
  }
  switch (status) {
    case "AVAILABLE":
      return owner
        ? {
            tone: "warning",
            text: `Available releases this proxy from ${owner}: they lose it at once (no refund), and it gets a new password unless you set one here.`,
          }
        : null;
    case "ASSIGNED":
      return { tone: "info", text: "A proxy becomes Assigned when a customer buys or renews it; it cannot be set by hand otherwise." };
    case "EXPIRED":
      return owner
        ? { tone: "warning", text: `The term of ${owner} ends now; they can still renew it for 7 days.` }
        : { tone: "info", text: "Only a customer's proxy can be Expired." };
    case "MAINTENANCE":
      return owner
        ? { tone: "info", text: "A customer's proxy cannot go to Maintenance: set it Available first." }
        : { tone: "info", text: "Maintenance takes the proxy off sale until you set it Available again." };
  }
}

function EditForm({ detail, onClose }: { detail: AdminProxyDetail; onClose: () => void }) {
  const [formError, setFormError] = useState("");
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: valibotResolver(EditSchema),
    defaultValues: {
      host: detail.host,
      port: detail.port ? String(detail.port) : DEFAULT_PORT,
      username: detail.username,
      password: detail.password,
      status: detail.status ?? "AVAILABLE",
    },
  });
  const {
    handleSubmit,
    setError,
    control,
    formState: { isSubmitting },
  } = form;
  const hint = statusHint(detail, useWatch({ control, name: "status" }));

  const onSubmit = async (values: EditOutput) => {
    setFormError("");
    try {
      await saveProxy(detail.id, values);
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      for (const [field, message] of Object.entries(fields)) {
        if (["host", "port", "username", "password", "status"].includes(field)) setError(field as keyof EditInput, { message });
      }
      setFormError(failureMessage(err, "Failed to update proxy"));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4" aria-busy={isSubmitting}>
      <LiveAlert tone="error">{formError}</LiveAlert>
      <FormField form={form} name="host" id="edit-host" label="Host/IP Address">
        {(field) => <Input autoComplete="off" spellCheck={false} {...field} />}
      </FormField>
      <FormField form={form} name="port" id="edit-port" label="Port">
        {(field) => <Input type="number" inputMode="numeric" min={1} max={65535} step={1} {...field} />}
      </FormField>
      <FormField form={form} name="username" id="edit-username" label="Username">
        {(field) => <Input autoComplete="off" spellCheck={false} {...field} />}
      </FormField>
      <FormField form={form} name="password" id="edit-password" label="Password">
        {(field) => <Input type="text" autoComplete="off" spellCheck={false} className="font-mono" {...field} />}
      </FormField>
      <SelectFormField form={form} name="status" id="edit-status" label="Status" values={PROXY_STATUSES} labels={STATUS_LABELS} />
      {hint ? (
        <p className={hint.tone === "warning" ? "text-sm text-amber-900" : "text-sm text-slate-600"} data-testid="status-hint">
          {hint.text}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" pending={isSubmitting} pendingText="Updating...">
          Update Proxy
        </Button>
      </div>
    </form>
  );
}
