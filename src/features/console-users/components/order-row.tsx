// One order in the user drawer, with its refund: a confirmation that says what the refund
// does, a reason for the audit log, and for an order past the money-back window a goodwill tick.
import { useRef, useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/api-error";
import { REFUND_WINDOW_DAYS, TERM_DAYS } from "@/lib/catalog";
import { formatDateTime } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import { refundOrder, type AdminOrder } from "@/features/console-users/api";
import { proxyOutcome, proxyTypeLabel } from "@/features/console-users/labels";
import { openUserDetail, reloadUsers, showNotice } from "@/features/console-users/stores";
import { plural } from "@/lib/plural";

export function OrderRow({ order, userId }: { order: AdminOrder; userId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState("");
  const [late, setLate] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const attempt = useRef<{ signature: string; key: string } | null>(null);
  const label = `${order.kind === "purchase" ? "Purchase" : "Renewal"} ${order.number}`;
  const canSubmit = reason.trim().length >= 3 && (order.within_promise || late);

  const submit = async () => {
    if (!canSubmit || pending) return;
    const body = { reason: reason.trim(), allow_late: !order.within_promise && late };
    const signature = JSON.stringify(body);
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: newIdempotencyKey() };
    setPending(true);
    setError("");
    try {
      const res = await refundOrder(order.id, body, attempt.current.key);
      attempt.current = null;
      const what =
        order.kind === "purchase"
          ? `${plural(res.released, "proxy", "proxies")} back in stock`
          : `${plural(res.shortened, "proxy", "proxies")} shortened by ${TERM_DAYS} days`;
      showNotice("success", `Refunded ${formatCents(order.total_cents)} for order ${order.number}: ${what}.`);
      setConfirming(false);
      openUserDetail(userId);
      reloadUsers();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <li className="space-y-2 px-3 py-2 text-sm" data-testid="detail-order">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            {label} · {order.quantity} × {proxyTypeLabel(order.proxy_type)} · {formatCents(order.total_cents)}
          </p>
          <p className="text-xs text-slate-500">
            {formatDateTime(order.created)} ·{" "}
            {order.status === "refunded" ? `Refunded on ${formatDateTime(order.refunded_at)}` : "Completed"}
          </p>
          {/* A refunded order's reason only repeats its date (in another format): the line above says it. */}
          {order.status === "refunded" ? null : <p className="text-xs text-slate-600">{order.refundable_reason}</p>}
          {order.refund_reason ? <p className="text-xs text-slate-600">Refund reason: {order.refund_reason}</p> : null}
        </div>
        {order.refundable && !confirming ? (
          <Button size="sm" variant="secondary" onClick={() => setConfirming(true)} aria-label={`Refund ${label}`}>
            Refund
          </Button>
        ) : null}
      </div>
      {confirming ? (
        <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-3">
          <p className="text-sm text-amber-900">
            Refund <strong>{formatCents(order.total_cents)}</strong> to the customer&apos;s balance (a REFUND in their ledger).{" "}
            {proxyOutcome(order)}
          </p>
          {!order.within_promise ? (
            <label className="flex items-start gap-2 text-sm text-amber-900">
              <input type="checkbox" checked={late} onChange={(e) => setLate(e.target.checked)} className="mt-1" />
              <span>This order is older than the {REFUND_WINDOW_DAYS}-day money-back promise. Refund it anyway as a goodwill gesture.</span>
            </label>
          ) : null}
          <Field id={`refund-reason-${order.id}`} label="Reason (for the audit log)">
            <Textarea
              id={`refund-reason-${order.id}`}
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </Field>
          <LiveAlert tone="error">{error}</LiveAlert>
          <div className="flex flex-wrap justify-end gap-2">
            <Button size="sm" variant="secondary" onClick={() => setConfirming(false)} disabled={pending}>
              Cancel
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={!canSubmit}
              pending={pending}
              pendingText="Refunding..."
              onClick={() => void submit()}
            >
              Refund {formatCents(order.total_cents)}
            </Button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
