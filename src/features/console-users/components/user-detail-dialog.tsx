import { useStore } from "@nanostores/react";
import { useContext, type ReactNode } from "react";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ListSkeleton } from "@/components/ui/list-state";
import { TRANSACTION_TYPE_LABELS } from "@/lib/catalog";
import { formatDate, formatDateTime } from "@/lib/dates";
import { endpoint } from "@/lib/endpoint";
import { proxyTitle } from "@/lib/proxy-title";
import { formatCents, formatSignedCents } from "@/lib/money";
import type { AdminPayment, UserDetail } from "@/features/console-users/api";
import { AdminIdContext, displayName } from "@/features/console-users/columns";
import { OrderRow } from "@/features/console-users/components/order-row";
import { UserTools } from "@/features/console-users/components/user-tools";
import { proxyTypeLabel, statusLabel } from "@/features/console-users/labels";
import { paymentBadges, paymentOutcome, paymentTitle } from "@/features/console-users/payment-format";
import { $userDetail, closeUserDetail, openUserDetail, openUserTool, type UserToolKind } from "@/features/console-users/stores";

/** The user drawer: profile, balance, payments, orders with refunds, ledger, proxies and tickets. */
export function UserDetailDialog() {
  const detail = useStore($userDetail);
  const user = detail.data?.user;
  return (
    <Dialog
      open={detail.userId !== null}
      onClose={closeUserDetail}
      title={user ? displayName(user) || user.email : "User details"}
      description={user?.email}
      className="max-w-3xl"
    >
      {detail.status === "error" && !detail.data ? (
        <LoadError message={detail.error} onRetry={() => detail.userId && openUserDetail(detail.userId)} />
      ) : !detail.data ? (
        <ListSkeleton label="Loading user details" className="space-y-3" rowClassName="h-10" />
      ) : (
        <DetailBody data={detail.data} />
      )}
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={closeUserDetail}>
          Close
        </Button>
      </div>
      <UserTools inDetail />
    </Dialog>
  );
}

interface SectionProps {
  title: string;
  /** Rows shown, and rows the user has. */
  count: number;
  total: number;
  emptyText: string;
  /** The rows, as list items. */
  children: ReactNode;
}

/** One list of the drawer, named by its title, with its count, or a sentence when it is empty. */
function Section({ title, count, total, emptyText, children }: SectionProps) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-500">{total > count ? `(newest ${count} of ${total})` : `(${total})`}</span>
      </h3>
      {count === 0 ? (
        <p className="text-sm text-slate-600">{emptyText}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label={title}>
          {children}
        </ul>
      )}
    </section>
  );
}

function DetailBody({ data }: { data: UserDetail }) {
  const allowlist = data.ip_allowlist ?? [];
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
          <dd className="flex flex-wrap gap-1">
            {user.is_admin ? <Badge tone="info">Admin</Badge> : <Badge>User</Badge>}
            {user.deleted ? <Badge tone="danger">Deleted</Badge> : user.suspended ? <Badge tone="danger">Suspended</Badge> : null}
            {user.verified || user.deleted ? null : <Badge tone="warning">Unverified</Badge>}
          </dd>
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

      <AccountTools user={user} />

      <Section title="Payments" count={data.payments.length} total={data.totals.payments} emptyText="No credit payments yet.">
        {data.payments.map((payment) => (
          <PaymentRow key={payment.id} payment={payment} />
        ))}
      </Section>

      <Section title="Orders" count={data.orders.length} total={data.totals.orders} emptyText="No orders yet.">
        {data.orders.map((order) => (
          <OrderRow key={order.id} order={order} userId={user.id} />
        ))}
      </Section>

      <Section title="Ledger" count={data.transactions.length} total={data.totals.transactions} emptyText="No transactions yet.">
        {data.transactions.map((row) => (
          <li key={row.id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm" data-testid="detail-transaction">
            <div className="min-w-0">
              <p className="break-words text-slate-900">{row.description || TRANSACTION_TYPE_LABELS[row.type]}</p>
              <p className="text-xs text-slate-500">
                {TRANSACTION_TYPE_LABELS[row.type]} · {formatDateTime(row.created)}
              </p>
            </div>
            <span className={row.amount_cents >= 0 ? "shrink-0 font-medium text-green-700" : "shrink-0 font-medium text-red-700"}>
              {formatSignedCents(row.amount_cents)}
            </span>
          </li>
        ))}
      </Section>

      <Section title="Proxies" count={data.proxies.length} total={data.totals.proxies} emptyText="No proxies.">
        {data.proxies.map((proxy) => (
          <li key={proxy.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm" data-testid="detail-proxy">
            <span className="min-w-0 text-xs break-words text-slate-900">
              <span className="font-medium">{proxyTitle(proxy)}</span>{" "}
              <span className="font-mono break-all text-slate-500">{endpoint(proxy)}</span>
            </span>
            <span className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
              {proxyTypeLabel(proxy.type)} · {[proxy.country, proxy.state, proxy.city].filter(Boolean).join(", ")}
              {proxy.expires_at ? ` · expires ${formatDate(proxy.expires_at)}` : ""}
              <Badge tone={proxy.status === "ASSIGNED" ? "success" : proxy.status === "EXPIRED" ? "danger" : "neutral"}>
                {statusLabel(proxy.status)}
              </Badge>
            </span>
          </li>
        ))}
      </Section>

      <Section
        title="Proxy IP allowlist"
        count={allowlist.length}
        total={allowlist.length}
        emptyText="None: the user's proxies answer connections from any address."
      >
        {allowlist.map((entry) => (
          <li key={entry} className="px-3 py-2 font-mono text-xs break-all text-slate-900" data-testid="detail-ip-allowlist-entry">
            {entry}
          </li>
        ))}
      </Section>

      <Section title="Support tickets" count={data.tickets.length} total={data.totals.tickets} emptyText="No tickets.">
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
      </Section>
    </div>
  );
}

/** The user tools for another user's account (none for one's own, nor for a deleted account). */
function AccountTools({ user }: { user: UserDetail["user"] }) {
  const adminId = useContext(AdminIdContext);
  if (user.deleted) {
    return <p className="text-sm text-slate-600">This account was deleted on request: its personal data is erased.</p>;
  }
  if (user.id === adminId) return null;
  const tools: [UserToolKind, string][] = [
    ["email", "Change e-mail"],
    ...(user.verified
      ? []
      : ([
          ["verify", "Mark verified"],
          ["verification", "Resend verification"],
        ] as [UserToolKind, string][])),
    user.suspended ? ["unsuspend", "Unsuspend"] : ["suspend", "Suspend"],
    ...(user.is_admin ? [] : ([["delete", "Delete user"]] as [UserToolKind, string][])),
  ];
  return (
    <section className="space-y-2" aria-label="Account actions">
      <h3 className="text-sm font-semibold text-slate-900">Account</h3>
      <div className="flex flex-wrap gap-2">
        {tools.map(([kind, label]) => (
          <Button
            key={kind}
            size="sm"
            variant={kind === "delete" || kind === "suspend" ? "danger" : "secondary"}
            onClick={() => openUserTool(kind, user)}
          >
            {label}
          </Button>
        ))}
      </div>
    </section>
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
