// Settings → Webhooks (issue #18): the customer's endpoints (URL, events, on or off, created),
// "Add endpoint" (the signing secret shown once), turning one on or off, rotating its secret,
// deleting it, its deliveries with Resend, and how to verify a delivery's signature. The
// server decides everything (/api/v1/webhooks); the dialogs and deliveries load when opened.
import { useStore } from "@nanostores/react";
import { Plus, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PagedListState } from "@/components/ui/list-state";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api-error";
import { formatDate } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { lazyComponent, lazyComponents } from "@/lib/lazy-component";
import { formatCents } from "@/lib/money";
import type { Webhook } from "@/features/account/webhooks/api";
import { $webhooks, changeWebhook, reloadWebhooks } from "@/features/account/webhooks/stores";
import type { WebhookDeliveriesProps } from "@/features/account/webhooks/components/deliveries";

const { AddWebhookDialog, RotateSecretDialog, DeleteWebhookDialog } = lazyComponents(
  () => import("@/features/account/webhooks/components/webhook-dialogs"),
  ["AddWebhookDialog", "RotateSecretDialog", "DeleteWebhookDialog"],
);
const WebhookDeliveries = lazyComponent<"WebhookDeliveries", WebhookDeliveriesProps>(
  () => import("@/features/account/webhooks/components/deliveries"),
  "WebhookDeliveries",
  <Skeleton className="h-16" />,
);

const NO_WEBHOOKS = <EmptyState icon={WebhookIcon} title="No webhook endpoints yet" text="Add one to hear about events as they happen." />;

const VERIFY_EXAMPLE = `import { Webhook } from "standardwebhooks";

// body: the request's raw text; headers: its webhook-id,
// webhook-timestamp and webhook-signature headers.
const event = new Webhook(process.env.WEBHOOK_SECRET).verify(body, headers);`;

type Open = { kind: "add" } | { kind: "rotate" | "delete"; webhook: Webhook } | null;

export function WebhooksPanel() {
  const state = useStore($webhooks);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState("");

  return (
    <div className="space-y-6">
      <section aria-labelledby="webhooks-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="webhooks-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <WebhookIcon className="size-5" aria-hidden="true" /> Webhooks
          </h2>
          <Button
            size="sm"
            onClick={() => {
              setError("");
              setOpen({ kind: "add" });
            }}
          >
            <Plus className="size-4" aria-hidden="true" /> Add endpoint
          </Button>
        </div>
        <p className="max-w-2xl text-sm text-slate-600">
          We send an HTTPS POST to your endpoints when something happens on your account: a purchase, a proxy about to expire, a low balance
          and more. Failed deliveries are retried with backoff for 24 hours. At most 10 endpoints.
        </p>
        <LiveAlert tone="error">{error}</LiveAlert>
        <PagedListState list={state} onRetry={reloadWebhooks} loadingLabel="Loading your webhook endpoints" empty={NO_WEBHOOKS} compact>
          <ul aria-label="Webhook endpoints" className="space-y-3">
            {state.items.map((webhook) => (
              <EndpointCard
                key={webhook.id}
                webhook={webhook}
                onRotate={() => setOpen({ kind: "rotate", webhook })}
                onDelete={() => {
                  setError("");
                  setOpen({ kind: "delete", webhook });
                }}
                onError={setError}
              />
            ))}
          </ul>
        </PagedListState>
      </section>

      <section aria-labelledby="webhooks-verify-title" className="space-y-2">
        <h3 id="webhooks-verify-title" className="text-base font-semibold text-slate-900">
          Verifying signatures
        </h3>
        <p className="max-w-2xl text-sm text-slate-600">
          Deliveries follow the Standard Webhooks spec: each carries the headers <code className="font-mono text-xs">webhook-id</code>,{" "}
          <code className="font-mono text-xs">webhook-timestamp</code> and <code className="font-mono text-xs">webhook-signature</code>,
          signed with the endpoint&apos;s secret. Verify them before trusting a body, for example with the{" "}
          <code className="font-mono text-xs">standardwebhooks</code> npm package. A resent delivery keeps its webhook-id, so you can use it
          to skip duplicates.
        </p>
        <pre className="overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">{VERIFY_EXAMPLE}</pre>
      </section>

      {open?.kind === "add" ? <AddWebhookDialog onClose={() => setOpen(null)} /> : null}
      {open?.kind === "rotate" ? <RotateSecretDialog webhook={open.webhook} onClose={() => setOpen(null)} /> : null}
      {open?.kind === "delete" ? <DeleteWebhookDialog webhook={open.webhook} onClose={() => setOpen(null)} onError={setError} /> : null}
    </div>
  );
}

interface EndpointCardProps {
  webhook: Webhook;
  onRotate: () => void;
  onDelete: () => void;
  onError: (message: string) => void;
}

function EndpointCard({ webhook, onRotate, onDelete, onError }: EndpointCardProps) {
  const [toggling, setToggling] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const toggle = async () => {
    setToggling(true);
    onError("");
    try {
      await changeWebhook(webhook.id, { enabled: !webhook.enabled }, newIdempotencyKey());
    } catch (err) {
      onError(errorMessage(err));
    } finally {
      setToggling(false);
    }
  };
  const deliveriesId = `webhook-deliveries-${webhook.id}`;
  return (
    <li className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="font-mono text-sm break-all text-slate-900" data-testid="webhook-url">
            {webhook.url}
          </p>
          {webhook.description ? <p className="text-sm break-words text-slate-600">{webhook.description}</p> : null}
        </div>
        <Badge tone={webhook.enabled ? "success" : "neutral"} data-testid="webhook-status">
          {webhook.enabled ? "Enabled" : "Disabled"}
        </Badge>
      </div>
      {!webhook.enabled && webhook.disabled_reason ? <p className="text-sm text-amber-800">{webhook.disabled_reason}</p> : null}
      <div className="flex flex-wrap gap-1" aria-label="Events">
        {webhook.events.map((event) => (
          <Badge key={event} tone="info" className="font-mono">
            {event}
          </Badge>
        ))}
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs">
        <div className="flex gap-1">
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-900">{formatDate(webhook.created)}</dd>
        </div>
        {webhook.balance_low_cents !== null ? (
          <div className="flex gap-1">
            <dt className="text-slate-500">Low balance under</dt>
            <dd className="text-slate-900">{formatCents(webhook.balance_low_cents)}</dd>
          </div>
        ) : null}
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          role="switch"
          aria-checked={webhook.enabled}
          pending={toggling}
          aria-label={`${webhook.enabled ? "Disable" : "Enable"} ${webhook.url}`}
          onClick={() => void toggle()}
        >
          {webhook.enabled ? "Disable" : "Enable"}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={showDeliveries}
          aria-controls={deliveriesId}
          onClick={() => setShowDeliveries((v) => !v)}
        >
          {showDeliveries ? "Hide deliveries" : "Deliveries"}
        </Button>
        <Button variant="secondary" size="sm" onClick={onRotate}>
          Rotate secret
        </Button>
        <Button variant="danger" size="sm" aria-label={`Delete ${webhook.url}`} onClick={onDelete}>
          Delete
        </Button>
      </div>
      <div id={deliveriesId}>{showDeliveries ? <WebhookDeliveries webhook={webhook} /> : null}</div>
    </li>
  );
}
