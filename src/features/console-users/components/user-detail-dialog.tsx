import { useStore } from "@nanostores/react";
import { useRef, useState, type ReactNode } from "react";
import { Alert, LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/api-error";
import { formatDate, formatDateTime } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import type { TransactionType } from "@/lib/pocketbase-types";
import { refundOrder, type AdminOrder, type AdminPayment, type UserDetail } from "@/features/console-users/api";
import { paymentBadges, paymentOutcome, paymentTitle } from "@/features/console-users/payment-format";
import { $userDetail, closeUserDetail, openUserDetail, reloadUsers, showNotice } from "@/features/console-users/stores";

const TYPE_LABELS: Record<TransactionType, string> = {
  CREDIT: "Credit",
  DEBIT: "Debit",
  PROXY_PURCHASE: "Proxy purchase",
  REFUND: "Refund",
};

const typeLabel = (type: string) => (type ? type.charAt(0) + type.slice(1).toLowerCase() : "Mixed");

/** The user drawer: profile, balance, payments, orders with refunds, ledger, proxies and tickets. */
export function UserDetailDialog() {
  const detail = useStore($userDetail);
  const user = detail.data?.user;
  return (
    <Dialog
      open={detail.userId !== null}
      onClose={closeUserDetail}
      title={user ? [user.first_name, user.last_name].filter(Boolean).join(" ") || user.email : "User details"}
      description={user?.email}
      className="max-w-3xl"
    >
      {detail.status === "error" && !detail.data ? (
        <LoadError message={detail.error} onRetry={() => detail.userId && openUserDetail(detail.userId)} />
      ) : !detail.data ? (
        <div className="space-y-3" aria-busy="true" aria-label="Loading user details">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-10 rounded-lg" />
          ))}
        </div>
      ) : (
        <DetailBody data={detail.data} />
      )}
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={closeUserDetail}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}

function Section({ title, count, total, children }: { title: string; count: number; total: number; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-500">{total > count ? `(newest ${count} of ${total})` : `(${total})`}</span>
      </h3>
      {children}
    </section>
  );
}

function DetailBody({ data }: { data: UserDetail }) {
  const { user } = data;
  return (
    <div className="space-y-6">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-500">Balance</dt>
          <dd className="font-semibold text-slate-900" data-testid="detail-balance">
            {formatCents(data.balance_cents)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Role</dt>
          <dd>{user.is_admin ? <Badge tone="info">Admin</Badge> : <Badge>User</Badge>}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Country</dt>
          <dd className="text-slate-900">{user.country || "—"}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Joined</dt>
          <dd className="text-slate-900">{formatDate(user.created)}</dd>
        </div>
      </dl>

      <Section title="Payments" count={data.payments.length} total={data.totals.payments}>
        {data.payments.length === 0 ? (
          <p className="text-sm text-slate-600">No credit payments yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Payments">
            {data.payments.map((payment) => (
              <PaymentRow key={payment.id} payment={payment} />
            ))}
          </ul>
        )}
      </Section>

      <Section title="Orders" count={data.orders.length} total={data.totals.orders}>
        {data.orders.length === 0 ? (
          <p className="text-sm text-slate-600">No orders yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Orders">
            {data.orders.map((order) => (
              <OrderRow key={order.id} order={order} userId={user.id} />
            ))}
          </ul>
        )}
      </Section>

      <Section title="Ledger" count={data.transactions.length} total={data.totals.transactions}>
        {data.transactions.length === 0 ? (
          <p className="text-sm text-slate-600">No transactions yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Ledger">
            {data.transactions.map((row) => (
              <li key={row.id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm" data-testid="detail-transaction">
                <div className="min-w-0">
                  <p className="break-words text-slate-900">{row.description || TYPE_LABELS[row.type]}</p>
                  <p className="text-xs text-slate-500">
                    {TYPE_LABELS[row.type]} · {formatDateTime(row.created)}
                  </p>
                </div>
                <span className={row.amount_cents >= 0 ? "shrink-0 font-medium text-green-700" : "shrink-0 font-medium text-red-700"}>
                  {row.amount_cents >= 0 ? "+" : "-"}
                  {formatCents(Math.abs(row.amount_cents))}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Proxies" count={data.proxies.length} total={data.totals.proxies}>
        {data.proxies.length === 0 ? (
          <p className="text-sm text-slate-600">No proxies.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Proxies">
            {data.proxies.map((proxy) => (
              <li key={proxy.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="detail-proxy">
                <span className="min-w-0 font-mono text-xs break-all text-slate-900">
                  {proxy.host}:{proxy.port}
                </span>
                <span className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                  {typeLabel(proxy.type)} · {[proxy.country, proxy.state, proxy.city].filter(Boolean).join(", ")}
                  {proxy.expires_at ? ` · expires ${formatDate(proxy.expires_at)}` : ""}
                  <Badge tone={proxy.status === "ASSIGNED" ? "success" : proxy.status === "EXPIRED" ? "danger" : "neutral"}>
                    {typeLabel(proxy.status)}
                  </Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Support tickets" count={data.tickets.length} total={data.totals.tickets}>
        {data.tickets.length === 0 ? (
          <p className="text-sm text-slate-600">No tickets.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Support tickets">
            {data.tickets.map((ticket) => (
              <li key={ticket.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                <a href={`/console/support?ticket=${ticket.id}`} className="min-w-0 break-words text-primary hover:underline">
                  {ticket.subject}
                </a>
                <span className="flex items-center gap-2 text-xs text-slate-600">
                  {formatDate(ticket.created)}
                  <Badge tone={ticket.status === "open" ? "success" : ticket.status === "pending" ? "warning" : "danger"}>
                    {ticket.status}
                  </Badge>
                  <Badge>{ticket.priority}</Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

/** A credit payment: what was paid for which credits, by which provider, and what refunds or a dispute did to it. */
function PaymentRow({ payment }: { payment: AdminPayment }) {
  const outcome = paymentOutcome(payment);
  const when = payment.paid_at || payment.created;
  return (
    <li className="space-y-1 px-3 py-2 text-sm" data-testid="detail-payment">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-medium text-slate-900">{paymentTitle(payment)}</p>
        <span className="flex flex-wrap items-center gap-1">
          {paymentBadges(payment).map((badge) =>
            badge.tone === "test" ? (
              <Badge key={badge.label} className="bg-violet-100 text-violet-800" data-testid="payment-test-badge">
                {badge.label}
              </Badge>
            ) : (
              <Badge key={badge.label} tone={badge.tone}>
                {badge.label}
              </Badge>
            ),
          )}
        </span>
      </div>
      <p className="text-xs text-slate-500">
        {payment.provider === "test" ? "Test provider" : "Stripe"} · <time dateTime={when}>{formatDateTime(when)}</time>
      </p>
      {outcome ? <p className="text-xs text-slate-600">{outcome}</p> : null}
    </li>
  );
}

/** What the refund does to the order's proxies, in the confirmation. */
function proxyOutcome(order: AdminOrder): string {
  return order.kind === "purchase"
    ? `The ${order.quantity === 1 ? "proxy" : `${order.quantity} proxies`} of this order that the customer still holds go back to stock with new passwords; their credentials stop working.`
    : `The 30 days this renewal bought are taken off its proxies (those whose time then runs out expire now), and their auto-renewal is switched off.`;
}

function OrderRow({ order, userId }: { order: AdminOrder; userId: string }) {
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
          ? `${res.released} ${res.released === 1 ? "proxy" : "proxies"} back in stock`
          : `${res.shortened} ${res.shortened === 1 ? "proxy" : "proxies"} shortened by 30 days`;
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
            {label} · {order.quantity} × {typeLabel(order.proxy_type)} · {formatCents(order.total_cents)}
          </p>
          <p className="text-xs text-slate-500">
            {formatDateTime(order.created)} · {order.status === "refunded" ? "Refunded" : "Completed"}
          </p>
          <p className="text-xs text-slate-600">{order.refundable_reason}</p>
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
              <span>This order is older than the 7-day money-back promise. Refund it anyway as a goodwill gesture.</span>
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
          <div aria-live="polite" className="empty:hidden">
            {error ? <Alert tone="error">{error}</Alert> : null}
          </div>
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
