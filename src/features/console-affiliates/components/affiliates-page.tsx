// /console/affiliates (admin spec 2, "Affiliate Management"): the programme's figures, the
// affiliates with referrals or earnings (searched and paged on the server), and a detail
// panel with the selected affiliate's referrals, where a pending commission is paid out.
import { useStore } from "@nanostores/react";
import { Clock, DollarSign, Gift, Users } from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { SeededPage } from "@/components/session/seeded-page";
import { RefreshButton } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { FilteredEmptyState, type EmptyTexts } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SearchField } from "@/components/ui/search-field";
import { ListCount, PagedListState } from "@/components/ui/list-state";
import { StatGrid } from "@/components/ui/stat-grid";
import { cn } from "@/lib/cn";
import { formatCents } from "@/lib/money";
import type { FirstDataProps } from "@/lib/server/first-data";
import { useSeededStore } from "@/stores/seed";
import { AFFILIATES_PER_PAGE, type AffiliateRow, type affiliatesFirstData } from "@/features/console-affiliates/api";
import { AFFILIATE_COLUMNS } from "@/features/console-affiliates/columns";
import { ReferralPanel } from "@/features/console-affiliates/components/referral-panel";
import {
  $affiliateSearchText,
  $affiliates,
  affiliatesSeeds,
  $selection,
  clearAffiliateSearch,
  goToAffiliatePage,
  reloadAffiliates,
  setAffiliateSearch,
} from "@/features/console-affiliates/stores";

/** The first page of affiliates with the stats, read on the server (null: load here). */
export function AffiliatesPage(props: FirstDataProps<typeof affiliatesFirstData>) {
  return (
    <SeededPage
      Gate={AdminGate}
      admin
      {...props}
      seeds={(first) => affiliatesSeeds(first?.affiliates ?? null)}
      Page={AffiliateManagement}
    />
  );
}

function AffiliateManagement() {
  const list = useSeededStore($affiliates);
  const { affiliateId } = useStore($selection);
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Affiliate Management"
        description="Affiliates with a verified referral or earnings. Paying records a payout made outside the shop; balances do not change."
      >
        <RefreshButton onRefresh={reloadAffiliates} pending={list.status === "loading"} />
      </PageHeader>
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
  return (
    <StatGrid
      loading={status === "loading" && !stats}
      stats={[
        { label: "Total Affiliates", value: String(stats?.total_affiliates ?? 0), icon: Gift, testId: "stat-affiliates" },
        { label: "Commission Paid", value: formatCents(stats?.commission_paid_cents ?? 0), icon: DollarSign, testId: "stat-paid" },
        { label: "Pending Payouts", value: formatCents(stats?.pending_payouts_cents ?? 0), icon: Clock, testId: "stat-pending" },
        { label: "Total Referrals", value: String(stats?.total_referrals ?? 0), icon: Users, testId: "stat-referrals" },
      ]}
    />
  );
}

function Search() {
  const text = useStore($affiliateSearchText);
  const list = useSeededStore($affiliates);
  return (
    <div className="space-y-2">
      <div role="search" aria-label="Search affiliates">
        <SearchField id="affiliate-search" placeholder="Name, e-mail or referral code" value={text} onSearch={setAffiliateSearch} />
      </div>
      <ListCount list={list} one="affiliate" many="affiliates" />
    </div>
  );
}

const NO_AFFILIATES: AffiliateRow[] = [];

const NO_AFFILIATE_TEXTS: EmptyTexts = {
  icon: Gift,
  title: "No affiliates yet",
  filteredTitle: "No affiliates found",
  filteredText: "Try another name, e-mail or referral code",
  emptyText: "Customers appear here once someone they referred verifies their e-mail or they earn a commission.",
  clearLabel: "Clear search",
};

function AffiliateTable() {
  const list = useSeededStore($affiliates);
  const { affiliateId } = useStore($selection);
  const empty = <FilteredEmptyState texts={NO_AFFILIATE_TEXTS} filtered={!!list.criteria} onClear={clearAffiliateSearch} />;
  return (
    <PagedListState list={list} onRetry={reloadAffiliates} loadingLabel="Loading affiliates" skeletonClassName="h-12" empty={empty}>
      <DataTable
        columns={AFFILIATE_COLUMNS}
        data={list.items.length > 0 ? list.items : NO_AFFILIATES}
        label="Affiliates table"
        className="min-w-[32rem]"
        busy={list.status === "loading"}
        rowTestId="affiliate-row"
        rowClassName={(row) => row.id === affiliateId && "bg-primary/5"}
        paging={{
          page: list.page,
          totalPages: list.totalPages,
          onPage: goToAffiliatePage,
          always: list.items.length >= AFFILIATES_PER_PAGE,
        }}
      />
    </PagedListState>
  );
}
