// The Recent Referrals table's columns (ui/data-table).
import { Badge } from "@/components/ui/badge";
import type { ColumnDef } from "@/components/ui/data-table";
import type { RecentReferral } from "@/features/affiliate/api";
import { formatDate } from "@/lib/dates";
import { formatCents } from "@/lib/money";

export const REFERRAL_COLUMNS: ColumnDef<RecentReferral>[] = [
  {
    id: "name",
    header: "Name",
    cell: ({ row }) => row.original.name || "-",
    meta: { cellClassName: "font-medium text-slate-900" },
  },
  { id: "email", header: "Email", cell: ({ row }) => row.original.email, meta: { cellClassName: "text-slate-600" } },
  {
    id: "date",
    header: "Date",
    cell: ({ row }) => formatDate(row.original.created),
    meta: { cellClassName: "whitespace-nowrap text-slate-600" },
  },
  {
    id: "commission",
    header: "Commission",
    cell: ({ row }) => formatCents(row.original.commission_cents),
    meta: { className: "text-right", cellClassName: "font-medium text-slate-900" },
  },
  {
    id: "status",
    header: "Status",
    cell: ({ row }) => {
      const paid = row.original.status === "paid";
      return <Badge tone={paid ? "success" : "warning"}>{paid ? "Paid" : "Pending"}</Badge>;
    },
  },
];
