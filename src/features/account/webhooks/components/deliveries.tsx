// One endpoint's deliveries (loaded when the customer opens them): event, status, the
// receiver's HTTP status, attempts, response time and when; newest first, 20 a page, and
// "Resend" on each (a new delivery with the same payload, listed first).
import { RotateCw } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PagedListState } from "@/components/ui/list-state";
import { LoadMore } from "@/components/ui/load-more";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { loadDeliveries, resendDelivery, type Delivery, type Webhook } from "@/features/account/webhooks/api";

const STATUS = {
  pending: { label: "Pending", tone: "info" },
  delivering: { label: "Delivering", tone: "info" },
  succeeded: { label: "Succeeded", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
} as const;

interface State {
  status: "loading" | "ready" | "error";
  items: Delivery[];
  next: string | null;
  error: string;
  more: boolean;
}

const NO_DELIVERIES = <p className="text-sm text-slate-600">No deliveries yet: they appear here when an event you chose happens.</p>;
const DELIVERY_ROWS = { skeletonClassName: "h-10", className: "space-y-2" };

export interface WebhookDeliveriesProps {
  webhook: Webhook;
}

export function WebhookDeliveries({ webhook }: WebhookDeliveriesProps) {
  const [state, setState] = useState<State>({ status: "loading", items: [], next: null, error: "", more: false });
  const [reloads, setReloads] = useState(0);
  const [notice, setNotice] = useState("");
  const [resending, setResending] = useState("");
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    loadDeliveries(webhook.id, null, current.signal).then(
      (page) => setState({ status: "ready", items: page.items, next: page.next_cursor, error: "", more: false }),
      (err: unknown) => {
        if (!current.signal.aborted && !isAbort(err)) setState((s) => ({ ...s, status: "error", error: errorMessage(err) }));
      },
    );
    return () => current.abort();
  }, [webhook.id, reloads]);

  const reload = () => {
    setState((s) => ({ ...s, status: "loading", error: "" }));
    setReloads((n) => n + 1);
  };

  const loadMore = useCallback(() => {
    if (!state.next) return;
    const current = new AbortController();
    controller.current = current;
    setState((s) => ({ ...s, more: true }));
    loadDeliveries(webhook.id, state.next, current.signal).then(
      (page) => setState((s) => ({ ...s, items: [...s.items, ...page.items], next: page.next_cursor, more: false })),
      (err: unknown) => {
        if (!isAbort(err)) setState((s) => ({ ...s, more: false, error: errorMessage(err) }));
      },
    );
  }, [state.next, webhook.id]);

  const resend = async (delivery: Delivery) => {
    setResending(delivery.id);
    setNotice("");
    try {
      await resendDelivery(webhook.id, delivery.id, newIdempotencyKey());
      setNotice(`Sent ${delivery.event} again.`);
      reload();
    } catch (err) {
      setNotice(errorMessage(err));
    } finally {
      setResending("");
    }
  };

  return (
    <div className="space-y-2" data-testid="webhook-deliveries">
      <LiveAlert tone="info">{notice}</LiveAlert>
      <PagedListState list={state} onRetry={reload} loadingLabel="Loading deliveries" empty={NO_DELIVERIES} compact {...DELIVERY_ROWS}>
        <div className="overflow-x-auto rounded-md border border-slate-200">
          <table className="w-full min-w-[40rem] text-left text-sm" aria-label={`Deliveries to ${webhook.url}`}>
            <thead className="bg-slate-50 text-xs text-slate-600">
              <tr>
                <th className="px-3 py-2 font-medium">Event</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">HTTP</th>
                <th className="px-3 py-2 font-medium">Attempts</th>
                <th className="px-3 py-2 font-medium">Response time</th>
                <th className="px-3 py-2 font-medium">When</th>
                <th className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {state.items.map((delivery) => (
                <tr key={delivery.id} data-testid="webhook-delivery">
                  <td className="px-3 py-2 font-mono text-xs">{delivery.event}</td>
                  <td className="px-3 py-2">
                    <Badge tone={STATUS[delivery.status].tone} title={delivery.last_error || undefined}>
                      {STATUS[delivery.status].label}
                    </Badge>
                  </td>
                  <td className="px-3 py-2">{delivery.last_status_code || "-"}</td>
                  <td className="px-3 py-2">{delivery.attempts}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{delivery.attempts ? `${delivery.last_response_ms} ms` : "-"}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(delivery.delivered_at ?? delivery.created)}</td>
                  <td className="px-3 py-2 text-right">
                    <Button
                      variant="secondary"
                      size="sm"
                      pending={resending === delivery.id}
                      pendingText="Sending..."
                      disabled={!webhook.enabled || (resending !== "" && resending !== delivery.id)}
                      aria-label={`Resend ${delivery.event} from ${formatDateTime(delivery.created)}`}
                      onClick={() => void resend(delivery)}
                    >
                      <RotateCw className="size-3.5" aria-hidden="true" /> Resend
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <LoadMore shown={state.next !== null} pending={state.more} onLoad={loadMore}>
            Load more deliveries
          </LoadMore>
        </div>
      </PagedListState>
    </div>
  );
}
