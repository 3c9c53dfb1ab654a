import { useStore } from "@nanostores/react";
import { useMemo } from "react";
import { Download, Receipt } from "lucide-react";
import { AuthGate } from "@/components/session/auth-gate";
import { LocalDateTime } from "@/components/session/local-date-time";
import { FilterSelect } from "@/components/form/filter-fields";
import { SearchField } from "@/components/ui/search-field";
import { Alert } from "@/components/ui/alert";
import { PagedListState } from "@/components/ui/list-state";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { FilteredEmptyState, type EmptyTexts } from "@/components/ui/empty-state";
import { Pager } from "@/components/ui/pager";
import { cn } from "@/lib/cn";
import { seedFor, useSeededStore } from "@/stores/seed";
import type { FirstDataProps } from "@/lib/server/first-data";
import type { TransactionPage, transactionsFirstData } from "@/features/transactions/api";
import { hasCriteria, showPager } from "@/features/transactions/filters";
import { amountClass, signedAmount } from "@/features/transactions/format";
import { isIncoming, TRANSACTION_TYPE_FILTERS, TRANSACTION_TYPE_LABELS } from "@/lib/catalog";
import {
  $transactionExport,
  $transactionQuery,
  $transactions,
  $transactionSearchText,
  clearTransactionFilters,
  exportTransactions,
  goToTransactionPage,
  reloadTransactions,
  setTransactionSearch,
  setTransactionType,
  transactionsSeed,
} from "@/features/transactions/stores";

/** /dashboard/transactions (spec 2.17): the customer's ledger, searchable and exportable. */
export function TransactionsPage({ initialUser = null, initial = null }: FirstDataProps<typeof transactionsFirstData>) {
  return (
    <AuthGate initialUser={initialUser}>
      {(user) => <TransactionHistory first={seedFor(initialUser, user, initial?.transactions)} userId={user.id} />}
    </AuthGate>
  );
}

function TransactionHistory({ first, userId }: { first: TransactionPage | null; userId: string }) {
  const exporting = useStore($transactionExport);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Transaction History</h1>
          <p className="text-sm text-slate-600">Credits added, proxy purchases, debits and refunds on your balance.</p>
        </div>
        <Button variant="secondary" onClick={() => void exportTransactions()} pending={exporting.pending} pendingText="Exporting...">
          <Download className="size-4" aria-hidden="true" />
          Export CSV
        </Button>
      </div>
      <Filters />
      <div aria-live="polite" className="empty:hidden">
        {exporting.error ? <Alert tone="error">{exporting.error}</Alert> : null}
      </div>
      <TransactionList first={first} userId={userId} />
    </div>
  );
}

function Filters() {
  const text = useStore($transactionSearchText);
  const { criteria } = useStore($transactionQuery);
  return (
    <div role="search" aria-label="Filter transactions" className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
      <SearchField id="transaction-search" placeholder="Search descriptions" value={text} onSearch={setTransactionSearch} />
      <FilterSelect
        id="transaction-type"
        label="Type"
        value={criteria.type}
        anyLabel="All"
        options={TRANSACTION_TYPE_FILTERS}
        onChange={setTransactionType}
      />
    </div>
  );
}

const NO_TRANSACTIONS: EmptyTexts = {
  icon: Receipt,
  title: "No transactions found",
  filteredText: "Try adjusting your search or filter criteria",
  emptyText: "Your transaction history will appear here",
};

function TransactionList({ first, userId }: { first: TransactionPage | null; userId: string }) {
  const seed = useMemo(() => transactionsSeed(first), [first]);
  const list = useSeededStore($transactions, seed, userId);

  const empty = <FilteredEmptyState texts={NO_TRANSACTIONS} filtered={hasCriteria(list.criteria)} onClear={clearTransactionFilters} />;
  return (
    <PagedListState list={list} onRetry={reloadTransactions} loadingLabel="Loading transactions" skeletonClassName="h-16" empty={empty}>
      <ul
        aria-label="Transactions"
        aria-busy={list.status === "loading"}
        className={cn(
          "divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm",
          list.status === "loading" && "opacity-60",
        )}
      >
        {list.items.map((row) => (
          <li key={row.id} className="flex items-start justify-between gap-3 px-4 py-3" data-testid="transaction-row">
            <div className="min-w-0 space-y-1">
              <p className="text-sm font-medium break-words text-slate-900">{row.description || TRANSACTION_TYPE_LABELS[row.type]}</p>
              <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <LocalDateTime value={row.created} testId="transaction-date" />
                <Badge tone={isIncoming(row.type) ? "success" : "danger"}>{TRANSACTION_TYPE_LABELS[row.type]}</Badge>
              </p>
              {row.stripe_payment_intent_id ? (
                <p className="font-mono text-xs break-all text-slate-500">Payment {row.stripe_payment_intent_id}</p>
              ) : null}
            </div>
            <span className={cn("shrink-0 text-sm font-semibold tabular-nums", amountClass(row.type))} data-testid="transaction-amount">
              {signedAmount(row)}
            </span>
          </li>
        ))}
      </ul>
      {showPager(list.page, list.items.length) ? (
        <Pager page={list.page} hasNext={list.page < list.totalPages} onPage={goToTransactionPage} disabled={list.status === "loading"} />
      ) : null}
    </PagedListState>
  );
}
