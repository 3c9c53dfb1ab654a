// /console/affiliates (admin spec 2, "Affiliate Management"): the programme's figures, the
// affiliates with referrals or earnings (searched and paged on the server), and a detail
// panel with the selected affiliate's referrals, where a pending commission is paid out.
import { useStore } from "@nanostores/react";
import { Clock, DollarSign, Gift, RefreshCw, SearchX, Users } from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { StatCard } from "@/components/ui/stat-card";
import { cn } from "@/lib/cn";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { SeedStores, seedFor, useSeededStore } from "@/stores/seed";
import { AFFILIATES_PER_PAGE, type AffiliatePage } from "@/features/console-affiliates/api";
import { personName } from "@/features/console-affiliates/format";
import { ReferralPanel } from "@/features/console-affiliates/components/referral-panel";
import {
  $affiliateSearchText,
  $affiliates,
  affiliatesSeeds,
  $selection,
  clearAffiliateSearch,
  goToAffiliatePage,
  reloadAffiliates,
  selectAffiliate,
  setAffiliateSearch,
} from "@/features/console-affiliates/stores";

interface AffiliatesPageProps {
  /** The admin the server verified for this request. */
  initialUser?: UserRecord | null;
  /** The first page of affiliates with the stats, read on the server (null: load here). */
  initial?: { affiliates: AffiliatePage | null } | null;
}

export function AffiliatesPage({ initialUser = null, initial = null }: AffiliatesPageProps) {
  return (
    <AdminGate initialUser={initialUser}>
      {(admin) => (
        <SeedStores seeds={affiliatesSeeds(seedFor(initialUser, admin, initial?.affiliates))}>
          <AffiliateManagement />
        </SeedStores>
      )}
    </AdminGate>
  );
}

function AffiliateManagement() {
  const list = useSeededStore($affiliates);
  const { affiliateId } = useStore($selection);
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Affiliate Management</h1>
          <p className="text-sm text-slate-600">
            Affiliates with a verified referral or earnings. Paying records a payout made outside the shop; balances do not change.
          </p>
        </div>
        <Button variant="secondary" onClick={reloadAffiliates} pending={list.status === "loading"} pendingText="Refreshing...">
          <RefreshCw className="size-4" aria-hidden="true" />
          Refresh
        </Button>
      </div>
      <Stats />
      <div className={cn("grid gap-6", affiliateId && "lg:grid-cols-[minmax(0,1fr)_24rem]")}>
        <section aria-labelledby="affiliates-heading" className="min-w-0 space-y-4">
          <h2 id="affiliates-heading" className="sr-only">
            Affiliates
          </h2>
          <Search />
          <AffiliateTable />
        </section>
        {affiliateId ? <ReferralPanel /> : null}
      </div>
    </div>
  );
}

function Stats() {
  const { stats, status } = useSeededStore($affiliates);
  const loading = status === "loading" && !stats;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        label="Total Affiliates"
        value={String(stats?.total_affiliates ?? 0)}
        loading={loading}
        icon={<Gift className="size-5" aria-hidden="true" />}
        testId="stat-affiliates"
      />
      <StatCard
        label="Commission Paid"
        value={formatCents(stats?.commission_paid_cents ?? 0)}
        loading={loading}
        icon={<DollarSign className="size-5" aria-hidden="true" />}
        testId="stat-paid"
      />
      <StatCard
        label="Pending Payouts"
        value={formatCents(stats?.pending_payouts_cents ?? 0)}
        loading={loading}
        icon={<Clock className="size-5" aria-hidden="true" />}
        testId="stat-pending"
      />
      <StatCard
        label="Total Referrals"
        value={String(stats?.total_referrals ?? 0)}
        loading={loading}
        icon={<Users className="size-5" aria-hidden="true" />}
        testId="stat-referrals"
      />
    </div>
  );
}

function Search() {
  const text = useStore($affiliateSearchText);
  const list = useSeededStore($affiliates);
  return (
    <div className="space-y-2">
      <div role="search" aria-label="Search affiliates">
        <Field id="affiliate-search" label="Search">
          <Input
            id="affiliate-search"
            type="search"
            placeholder="Name, e-mail or referral code"
            value={text}
            onChange={(e) => setAffiliateSearch(e.target.value)}
            autoComplete="off"
          />
        </Field>
      </div>
      <p className="text-sm text-slate-600" aria-live="polite">
        {list.status === "ready" ? `${list.totalItems} ${list.totalItems === 1 ? "affiliate" : "affiliates"}` : "\u00a0"}
      </p>
    </div>
  );
}

const HEAD = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase";

function AffiliateTable() {
  const list = useSeededStore($affiliates);
  const { affiliateId } = useStore($selection);
  if (list.status === "error" && list.items.length === 0) {
    return <LoadError message={list.error} onRetry={reloadAffiliates} />;
  }
  if (list.status === "loading" && list.items.length === 0) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading affiliates">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-12 rounded-lg" />
        ))}
      </div>
    );
  }
  if (list.items.length === 0) {
    return list.criteria ? (
      <EmptyState icon={SearchX} title="No affiliates found" text="Try another name, e-mail or referral code">
        <Button variant="secondary" size="sm" onClick={clearAffiliateSearch}>
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState
        icon={Gift}
        title="No affiliates yet"
        text="Customers appear here once someone they referred verifies their e-mail or they earn a commission."
      />
    );
  }
  return (
    <div className="space-y-4">
      {list.status === "error" ? <Alert tone="error">{list.error}</Alert> : null}
      <div
        tabIndex={0}
        role="region"
        aria-label="Affiliates table"
        className={cn("overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm", list.status === "loading" && "opacity-60")}
      >
        <table className="w-full min-w-[40rem] text-sm">
          <thead className="border-b border-slate-200 bg-slate-50">
            <tr>
              <th scope="col" className={HEAD}>
                Name
              </th>
              <th scope="col" className={HEAD}>
                E-mail
              </th>
              <th scope="col" className={HEAD}>
                Referral Code
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                Earnings
              </th>
              <th scope="col" className={cn(HEAD, "text-right")}>
                Referrals
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.items.map((row) => {
              const selected = row.id === affiliateId;
              const name = personName(row.user_first_name, row.user_last_name, row.user_email);
              return (
                <tr key={row.id} className={cn(selected && "bg-primary/5")} data-testid="affiliate-row">
                  <td className="px-4 py-3">
                    <button
                      type="button"
                      onClick={() => selectAffiliate(row.id)}
                      aria-pressed={selected}
                      aria-controls={selected ? "affiliate-detail" : undefined}
                      className="text-left font-medium text-primary hover:underline focus:underline"
                    >
                      {name}
                    </button>
                  </td>
                  <td className="px-4 py-3 break-all text-slate-700">{row.user_email}</td>
                  <td className="px-4 py-3 font-mono text-slate-700">{row.code}</td>
                  <td className="px-4 py-3 text-right tabular-nums">
                    <span className="font-medium text-slate-900">{formatCents(row.total_earnings_cents)}</span>
                    {row.pending_earnings_cents > 0 ? (
                      <span className="block text-xs text-amber-800">{formatCents(row.pending_earnings_cents)} pending</span>
                    ) : row.pending_earnings_cents < 0 ? (
                      <span className="block text-xs text-red-700" data-testid="affiliate-clawback">
                        {formatCents(-row.pending_earnings_cents)} clawed back
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{row.total_referrals}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {list.page > 1 || list.totalPages > 1 || list.items.length >= AFFILIATES_PER_PAGE ? (
        <Pager page={list.page} hasNext={list.page < list.totalPages} onPage={goToAffiliatePage} disabled={list.status === "loading"} />
      ) : null}
    </div>
  );
}
