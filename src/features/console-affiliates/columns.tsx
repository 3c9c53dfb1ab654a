// Affiliate Management's table: the name opens the affiliate's referrals beside the list.
import { useStore } from "@nanostores/react";
import { createColumnHelper } from "@tanstack/react-table";
import { formatCents } from "@/lib/money";
import type { AffiliateRow } from "@/features/console-affiliates/api";
import { personName } from "@/features/console-affiliates/format";
import { $selection, selectAffiliate } from "@/features/console-affiliates/stores";

const column = createColumnHelper<AffiliateRow>();

export const AFFILIATE_COLUMNS = [
  column.display({ id: "name", header: "Name", cell: ({ row }) => <SelectButton row={row.original} /> }),
  column.accessor("user_email", {
    header: "E-mail",
    meta: { cellClassName: "break-all text-slate-700", secondary: true },
  }),
  column.accessor("code", { header: "Referral Code", meta: { cellClassName: "font-mono text-slate-700" } }),
  column.display({
    id: "earnings",
    header: "Earnings",
    meta: { className: "text-right", cellClassName: "tabular-nums" },
    cell: ({ row: { original: row } }) => (
      <>
        <span className="font-medium text-slate-900">{formatCents(row.total_earnings_cents)}</span>
        {row.pending_earnings_cents > 0 ? (
          <span className="block text-xs text-amber-800">{formatCents(row.pending_earnings_cents)} pending</span>
        ) : row.pending_earnings_cents < 0 ? (
          <span className="block text-xs text-red-700" data-testid="affiliate-clawback">
            {formatCents(-row.pending_earnings_cents)} clawed back
          </span>
        ) : null}
      </>
    ),
  }),
  column.accessor("total_referrals", { header: "Referrals", meta: { className: "text-right", cellClassName: "tabular-nums" } }),
];

function SelectButton({ row }: { row: AffiliateRow }) {
  const selected = useStore($selection).affiliateId === row.id;
  return (
    <button
      type="button"
      onClick={() => selectAffiliate(row.id)}
      aria-pressed={selected}
      aria-controls={selected ? "affiliate-detail" : undefined}
      className="text-left font-medium text-primary hover:underline focus:underline"
    >
      {personName(row.user_first_name, row.user_last_name, row.user_email)}
    </button>
  );
}
