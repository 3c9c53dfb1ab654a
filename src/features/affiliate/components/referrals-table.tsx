// The Recent Referrals table (ui/data-table with the feature's columns). The affiliate page
// loads it lazily, only when there are referrals to show: the empty state needs no table, so
// TanStack's table code stays out of the page's first load.
import { DataTable } from "@/components/ui/data-table";
import { REFERRAL_COLUMNS } from "@/features/affiliate/columns";
import type { RecentReferral } from "@/features/affiliate/api";

export function ReferralsTable({ referrals }: { referrals: RecentReferral[] }) {
  return <DataTable columns={REFERRAL_COLUMNS} data={referrals} rowTestId="referral-row" className="min-w-[32rem]" frameClassName="" />;
}
