// The edit modal (admin spec "Edit modal", issue #16): titled with host:port, the gateway's
// endpoint (Host/IP Address and Port, read-only: the server keeps them); the customer's
// Username and Password (plain text) and Status; the Exit: direct from the gateway machine
// (optional bind address) or through an upstream proxy whose password is write-only (blank
// keeps the stored one); its Limits (issue #16: a monthly bandwidth quota in GB or MB and a cap on
// connections at once, 0 = unlimited), under its Usage this month and in the last 24 hours.
// Cancel / "Update Proxy". The customer's password is read when the
// modal opens (the list never carries it). Status changes follow the server's rules,
// explained under the select.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { LiveAlert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormField, SelectFormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import type { ProxyStatus } from "@/lib/pocketbase-types";
import { fetchProxy, type AdminProxy, type AdminProxyDetail } from "@/features/console-proxies/api";
import {
  EDIT_FIELDS,
  EXIT_LABELS,
  editSchema,
  QUOTA_UNITS,
  quotaFields,
  PROXY_EXITS,
  PROXY_STATUSES,
  STATUS_LABELS,
  toProxyEdit,
  type EditInput,
  type EditOutput,
} from "@/features/console-proxies/schemas";
import { UpstreamFailure } from "@/features/console-proxies/components/upstream-failure";
import { failureMessage, saveProxy } from "@/features/console-proxies/stores";
import { endpoint } from "@/lib/endpoint";
import { formatBytes } from "@/lib/bytes";
import { plural } from "@/lib/plural";

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
      description={proxy ? `Customer credentials, status and exit of ${proxy.username}.` : ""}
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

const QUOTA_UNIT_LABELS = { GB: "GB", MB: "MB" } as const;

function EditForm({ detail, onClose }: { detail: AdminProxyDetail; onClose: () => void }) {
  const [formError, setFormError] = useState("");
  const [schema] = useState(() => editSchema(detail.upstream_has_password, detail.password));
  const form = useForm<EditInput, unknown, EditOutput>({
    resolver: valibotResolver(schema),
    defaultValues: {
      username: detail.username,
      password: detail.password,
      status: detail.status ?? "AVAILABLE",
      exit: detail.exit || "direct",
      bind_address: detail.bind_address ?? "",
      upstream_host: detail.upstream_host ?? "",
      upstream_port: detail.upstream_port ? String(detail.upstream_port) : "",
      upstream_username: detail.upstream_username ?? "",
      upstream_password: "",
      ...quotaFields(detail.bandwidth_quota_bytes ?? 0),
      max_connections: String(detail.max_connections ?? 0),
    },
  });
  const {
    handleSubmit,
    setError,
    control,
    formState: { isSubmitting },
  } = form;
  const hint = statusHint(detail, useWatch({ control, name: "status" }));
  const exit = useWatch({ control, name: "exit" });

  const onSubmit = async (values: EditOutput) => {
    setFormError("");
    try {
      await saveProxy(detail.id, toProxyEdit(values));
      onClose();
    } catch (err) {
      const fields = fieldErrors(err);
      for (const [field, message] of Object.entries(fields)) {
        if ((EDIT_FIELDS as string[]).includes(field)) setError(field as keyof EditInput, { message });
      }
      setFormError(failureMessage(err, "Failed to update proxy"));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4" aria-busy={isSubmitting}>
      <LiveAlert tone="error">{formError}</LiveAlert>
      <ProxyUsage detail={detail} />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_7rem]">
        <Field id="edit-host" label="Host/IP Address">
          <Input id="edit-host" value={detail.host} readOnly aria-describedby="edit-endpoint-hint" className="bg-slate-50 font-mono" />
        </Field>
        <Field id="edit-port" label="Port">
          <Input id="edit-port" value={String(detail.port)} readOnly aria-describedby="edit-endpoint-hint" className="bg-slate-50" />
        </Field>
        <p id="edit-endpoint-hint" className="text-sm text-slate-600 sm:col-span-2">
          The gateway&apos;s address customers connect to; the server sets it (System Settings, Proxy gateway).
        </p>
      </div>
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
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Exit</legend>
        <SelectFormField form={form} name="exit" id="edit-exit" label="Traffic leaves" values={PROXY_EXITS} labels={EXIT_LABELS} />
        {exit === "upstream" ? (
          <>
            <UpstreamFailure proxy={detail} />
            <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_7rem]">
              <FormField form={form} name="upstream_host" id="edit-upstream-host" label="Upstream host">
                {(field) => <Input autoComplete="off" spellCheck={false} className="font-mono" {...field} />}
              </FormField>
              <FormField form={form} name="upstream_port" id="edit-upstream-port" label="Upstream port">
                {(field) => <Input type="number" inputMode="numeric" min={1} max={65535} step={1} {...field} />}
              </FormField>
            </div>
            <FormField form={form} name="upstream_username" id="edit-upstream-username" label="Upstream username">
              {(field) => <Input autoComplete="off" spellCheck={false} {...field} />}
            </FormField>
            <FormField
              form={form}
              name="upstream_password"
              id="edit-upstream-password"
              label="Upstream password"
              hint={
                detail.upstream_has_password
                  ? "Stored encrypted and never shown. Leave blank to keep it; type a new one to replace it."
                  : "Stored encrypted and never shown again."
              }
            >
              {(field) => (
                <Input
                  type="password"
                  autoComplete="new-password"
                  spellCheck={false}
                  placeholder={detail.upstream_has_password ? "Unchanged" : ""}
                  {...field}
                />
              )}
            </FormField>
          </>
        ) : (
          <FormField
            form={form}
            name="bind_address"
            id="edit-bind-address"
            label="Bind address (optional)"
            hint="A local IP address of the gateway machine to send from; empty uses the machine's default."
          >
            {(field) => <Input autoComplete="off" spellCheck={false} className="font-mono" placeholder="203.0.113.10" {...field} />}
          </FormField>
        )}
      </fieldset>
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Limits</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex items-end gap-2">
            <FormField
              form={form}
              name="bandwidth_quota"
              id="edit-quota"
              label="Bandwidth quota a month (0 = unlimited)"
              className="flex-1"
            >
              {(field) => <Input type="number" inputMode="numeric" min={0} step={1} {...field} />}
            </FormField>
            <SelectFormField
              form={form}
              name="bandwidth_quota_unit"
              id="edit-quota-unit"
              label="Unit"
              values={QUOTA_UNITS}
              labels={QUOTA_UNIT_LABELS}
              className="w-24"
            />
          </div>
          <FormField form={form} name="max_connections" id="edit-max-connections" label="Max concurrent connections (0 = unlimited)">
            {(field) => <Input type="number" inputMode="numeric" min={0} max={100000} step={1} {...field} />}
          </FormField>
        </div>
        <p className="text-sm text-slate-600">
          Past them the gateway refuses new connections, saying which limit. A purchase sets them from the plan; a renewal keeps them.
        </p>
      </fieldset>
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

/** This month's traffic against the quota, and the last 24 hours' (the gateway's metering). */
function ProxyUsage({ detail }: { detail: AdminProxyDetail }) {
  const { month, last_24h: day } = detail.usage;
  return (
    <dl className="grid gap-3 rounded-lg bg-slate-50 p-3 text-sm sm:grid-cols-2" data-testid="proxy-usage">
      <div>
        <dt className="text-xs font-medium text-slate-500">This month</dt>
        <dd className="mt-0.5 text-slate-900">
          {formatBytes(month.bytes)}
          {month.quota_bytes > 0 ? ` of ${formatBytes(month.quota_bytes)}` : ""}
          {month.quota_reached ? <span className="block font-medium text-red-700">Quota used up until {month.renews_on}</span> : null}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-medium text-slate-500">Last 24 hours</dt>
        <dd className="mt-0.5 text-slate-900">
          {formatBytes(day.bytes)} · {plural(day.connections, "connection", "connections")}
          {day.failed_connections > 0 ? `, ${day.failed_connections.toLocaleString("en-US")} failed` : ""}
        </dd>
      </div>
    </dl>
  );
}
