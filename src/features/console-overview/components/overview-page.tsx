import { useMemo } from "react";
import {
  Activity,
  AlertTriangle,
  ArrowRight,
  CheckCircle2,
  DollarSign,
  FlaskConical,
  Info,
  Receipt,
  Server,
  Settings,
  Network,
  Users,
  XCircle,
  type LucideIcon,
} from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ListSkeleton } from "@/components/ui/list-state";
import { StatGrid } from "@/components/ui/stat-grid";
import { PageHeader } from "@/components/ui/page-header";
import { cn } from "@/lib/cn";
import { LocalDateTime } from "@/components/session/local-date-time";
import { formatCents, formatSignedCents } from "@/lib/money";
import { isIncoming, TRANSACTION_TYPE_LABELS } from "@/lib/catalog";
import type { UserRecord } from "@/lib/pocketbase-types";
import { seedFor, useSeededStore } from "@/stores/seed";
import type { AdminOverview, SystemAlerts as SystemAlertsData } from "@/features/console-overview/api";
import { gatewayTodayLine } from "@/features/console-overview/gateway-figures";
import { systemAlerts, type AlertTone } from "@/features/console-overview/system-alerts";
import { $overview, overviewSeed, reloadOverview, type OverviewState } from "@/features/console-overview/stores";

const QUICK_ACTIONS = [
  { href: "/console/users", label: "Manage users", text: "Balances, admin rights, refunds", icon: Users },
  { href: "/console/proxies", label: "Manage proxies", text: "Inventory, generate, import", icon: Server },
  { href: "/console/support", label: "Support tickets", text: "Answer customers", icon: Receipt },
  { href: "/console/settings", label: "System settings", text: "Site, contact, security", icon: Settings },
] as const;

const ALERT_LOOK: Record<AlertTone, { icon: LucideIcon; className: string }> = {
  ok: { icon: CheckCircle2, className: "bg-green-50 text-green-900" },
  danger: { icon: XCircle, className: "bg-red-50 text-red-900" },
  warning: { icon: AlertTriangle, className: "bg-amber-50 text-amber-900" },
  info: { icon: Info, className: "bg-blue-50 text-blue-900" },
};

/**
 * /console (admin spec 2, "Admin Overview"): platform figures, the gateway today (issue #16),
 * recent ledger rows, System Alerts read from the system (issue #28), static blocks.
 */
export function OverviewPage({ initialUser = null, initial = null }: OverviewPageProps) {
  return <AdminGate initialUser={initialUser}>{(admin) => <Overview initial={seedFor(initialUser, admin, initial)} />}</AdminGate>;
}

interface OverviewPageProps {
  /** The admin the server verified for this request. */
  initialUser?: UserRecord | null;
  /** The figures the server read for the first render (null when it could not). */
  initial?: { overview: AdminOverview | null; alerts: SystemAlertsData | null } | null;
}

function Overview({ initial }: { initial: { overview: AdminOverview | null; alerts: SystemAlertsData | null } | null }) {
  const seed = useMemo(() => overviewSeed(initial?.overview, initial?.alerts), [initial]);
  const state = useSeededStore($overview, seed);
  const loading = state.status === "loading" && !state.data;
  const data = state.data;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Admin Overview" description="The platform at a glance." />
      {state.status === "error" ? <LoadError message={state.error} onRetry={reloadOverview} /> : null}
      <StatGrid
        label="Platform figures"
        className="lg:grid-cols-2 xl:grid-cols-4"
        loading={loading}
        stats={[
          {
            label: "Total Users",
            value: data ? data.total_users.toLocaleString("en-US") : "—",
            icon: Users,
            testId: "overview-total-users",
          },
          {
            label: "Total Revenue",
            value: data ? formatCents(data.total_revenue_cents) : "—",
            icon: DollarSign,
            testId: "overview-total-revenue",
          },
          {
            label: "Active Proxies",
            value: data ? data.active_proxies.toLocaleString("en-US") : "—",
            icon: Server,
            testId: "overview-active-proxies",
          },
          { label: "System Status", value: "Operational", icon: Activity, fixed: true },
        ]}
      />
      {data ? (
        <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="overview-gateway">
          <Network className="size-4 shrink-0 text-primary" aria-hidden="true" />
          {gatewayTodayLine(data.gateway_today)}
        </p>
      ) : null}
      {data && data.test_payments_cents > 0 ? (
        <p className="text-sm text-slate-600" data-testid="overview-test-payments">
          <span className="mr-2 rounded bg-violet-100 px-1.5 py-0.5 text-xs font-semibold text-violet-800">Test</span>
          Test payments (no money moved): {formatCents(data.test_payments_cents)}, not counted in Total Revenue.
        </p>
      ) : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <RecentTransactions state={state} />
        <SystemAlerts state={state} />
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">What customers use us for</h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-700">
            <li>Web scraping and price monitoring with rotating residential IPs.</li>
            <li>Ad verification and SEO rank tracking from many countries.</li>
            <li>Account management and social media automation on dedicated datacenter IPs.</li>
            <li>Sneaker and ticket drops that need fast, clean SOCKS5 and HTTPS proxies.</li>
          </ul>
        </Card>
        <Card>
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <FlaskConical className="size-5 text-primary" aria-hidden="true" />
            Testing the shop
          </h2>
          <ul className="mt-3 space-y-2 text-sm text-slate-700">
            <li>Credit a test customer in User Management, then buy proxies from their dashboard.</li>
            <li>Generate a few proxies of each type in Proxy Management before a test purchase.</li>
            <li>Open a ticket as a customer and answer it in Support Tickets to see the live chat.</li>
            <li>Turn on demo mode in System Settings to show the console read-only.</li>
          </ul>
        </Card>
      </div>

      <section aria-labelledby="quick-actions">
        <h2 id="quick-actions" className="mb-3 text-lg font-semibold text-slate-900">
          Quick actions
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {QUICK_ACTIONS.map(({ href, label, text, icon: Icon }) => (
            <li key={href}>
              <a
                href={href}
                className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none"
              >
                <span className="rounded-lg bg-primary/10 p-2 text-primary">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block font-medium text-slate-900">{label}</span>
                  <span className="block text-xs text-slate-600">{text}</span>
                </span>
                <ArrowRight className="size-4 text-slate-400" aria-hidden="true" />
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function RecentTransactions({ state }: { state: OverviewState }) {
  const rows = state.data?.recent_transactions ?? [];
  return (
    <Card className="lg:col-span-2">
      <h2 className="text-lg font-semibold text-slate-900">Recent transactions</h2>
      {state.status === "loading" && !state.data ? (
        <ListSkeleton label="Loading recent transactions" className="mt-4" rowClassName="h-12" />
      ) : state.data && rows.length === 0 ? (
        <div className="mt-4">
          <EmptyState icon={Receipt} title="No transactions yet" text="Credits, purchases and refunds will appear here." />
        </div>
      ) : (
        <ul aria-label="Recent transactions" className="mt-3 divide-y divide-slate-100">
          {rows.map((row) => (
            <li key={row.id} className="flex items-start justify-between gap-3 py-3" data-testid="recent-transaction">
              <div className="min-w-0 space-y-1">
                <p className="truncate text-sm font-medium text-slate-900">{row.user_email || "Deleted user"}</p>
                <p className="text-xs break-words text-slate-600">{row.description || TRANSACTION_TYPE_LABELS[row.type]}</p>
                <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                  <LocalDateTime value={row.created} />
                  <Badge tone={isIncoming(row.type) ? "success" : "danger"}>{TRANSACTION_TYPE_LABELS[row.type]}</Badge>
                </p>
              </div>
              <span
                className={cn("shrink-0 text-sm font-semibold tabular-nums", row.amount_cents >= 0 ? "text-green-700" : "text-red-700")}
              >
                {formatSignedCents(row.amount_cents)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function SystemAlerts({ state }: { state: OverviewState }) {
  const alerts = state.alerts ? systemAlerts(state.alerts) : null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">System Alerts</h2>
      {!alerts ? (
        <ListSkeleton label="Loading system alerts" className="mt-4" rowClassName="h-12" />
      ) : (
        <ul aria-label="System alerts" className="mt-3 space-y-3 text-sm">
          {alerts.map(({ id, tone, title, text, href }) => {
            const { icon: Icon, className } = ALERT_LOOK[tone];
            return (
              <li key={id} className={cn("flex gap-3 rounded-lg p-3", className)} data-testid={`alert-${id}`}>
                <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="min-w-0 break-words">
                  <span className="block font-medium">
                    {href ? (
                      <a href={href} className="underline underline-offset-2">
                        {title}
                      </a>
                    ) : (
                      title
                    )}
                  </span>
                  <span className="text-xs">{text}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {state.alerts ? (
        <p className="mt-3 text-xs text-slate-500">
          Checked <LocalDateTime value={state.alerts.checked_at} />: the gateway's reports, payments and tickets.
        </p>
      ) : null}
    </Card>
  );
}
