// The selected affiliate's detail panel: Total Earnings, Pending, the affiliate's payout
// method, and a scrollable list of recent referrals; a referral with at least the minimum
// payout ($50.00) pending has a Pay button (confirmed first, the payout method shown again).
import { useStore } from "@nanostores/react";
import { AlertTriangle, X } from "lucide-react";
import { useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Pager } from "@/components/ui/pager";
import { PagedListState } from "@/components/ui/list-state";
import { Skeleton } from "@/components/ui/skeleton";
import { formatDate, formatDateTime } from "@/lib/dates";
import { newIdempotencyKey } from "@/lib/idempotency";
import { MIN_PAYOUT_CENTS } from "@/lib/catalog";
import { formatCents } from "@/lib/money";
import type { ReferralRow } from "@/features/console-affiliates/api";
import { personName, referralFlag, referralStatusLabel, referralTone } from "@/features/console-affiliates/format";
import {
  $payNotice,
  $referrals,
  goToReferralPage,
  payReferralNow,
  reloadReferrals,
  selectAffiliate,
} from "@/features/console-affiliates/stores";

export function ReferralPanel() {
  const state = useStore($referrals);
  const notice = useStore($payNotice);
  const [paying, setPaying] = useState<ReferralRow | null>(null);
  const affiliate = state.affiliate;
  const title = affiliate ? personName(affiliate.user_first_name, affiliate.user_last_name, affiliate.user_email) : "Affiliate";

  return (
    <Card
      id="affiliate-detail"
      role="region"
      aria-labelledby="affiliate-detail-title"
      className="h-fit min-w-0 space-y-4 lg:sticky lg:top-4"
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id="affiliate-detail-title" className="text-lg font-semibold break-words text-slate-900">
            {title}
          </h2>
          {affiliate ? (
            <p className="text-sm break-all text-slate-600">
              {affiliate.user_email} · <span className="font-mono">{affiliate.code}</span>
            </p>
          ) : null}
        </div>
        <button
          type="button"
          onClick={() => selectAffiliate("")}
          aria-label="Close details"
          className="rounded-md p-1 text-slate-500 hover:bg-slate-100"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>

      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-lg bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Total Earnings</dt>
          <dd className="text-lg font-bold text-slate-900" data-testid="detail-total">
            {affiliate ? formatCents(affiliate.total_earnings_cents) : <Skeleton className="h-6 w-16" />}
          </dd>
        </div>
        <div className="rounded-lg bg-amber-50 p-3">
          <dt className="text-xs text-amber-900">Pending</dt>
          <dd className="text-lg font-bold text-amber-900" data-testid="detail-pending">
            {affiliate ? formatCents(affiliate.pending_earnings_cents) : <Skeleton className="h-6 w-16" />}
          </dd>
        </div>
      </dl>
      {affiliate ? <PayoutMethod value={affiliate.payout_method} testId="detail-payout-method" /> : null}
      {affiliate && affiliate.pending_earnings_cents < 0 ? (
        <p className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800" data-testid="detail-clawback">
          {formatCents(-affiliate.pending_earnings_cents)} clawed back: commissions already paid out on payments that Stripe later refunded
          or lost to a chargeback. Nothing is owed until new commissions exceed it; the next payouts net it.
        </p>
      ) : null}

      <LiveAlert tone="success">{notice}</LiveAlert>

      <div className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-900">Recent referrals</h3>
        <ReferralList onPay={setPaying} />
        {state.totalPages > 1 ? (
          <Pager
            page={state.page}
            hasNext={state.page < state.totalPages}
            onPage={goToReferralPage}
            disabled={state.status === "loading"}
          />
        ) : null}
      </div>

      {paying ? <PayDialog referral={paying} payoutMethod={affiliate?.payout_method ?? ""} onClose={() => setPaying(null)} /> : null}
    </Card>
  );
}

const NO_REFERRALS = (
  <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-600">No referrals yet</p>
);

function ReferralList({ onPay }: { onPay: (referral: ReferralRow) => void }) {
  const state = useStore($referrals);
  return (
    <PagedListState list={state} onRetry={reloadReferrals} loadingLabel="Loading referrals" empty={NO_REFERRALS} skeletonRows={3}>
      <ul
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box must be reachable by keyboard
        tabIndex={0}
        aria-label="Recent referrals"
        aria-busy={state.status === "loading"}
        className="max-h-96 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
      >
        {state.items.map((referral) => (
          <li key={referral.id} className="space-y-1 p-3" data-testid="referral-item">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium break-words text-slate-900">
                {personName(referral.user_first_name, referral.user_last_name, referral.user_email)}
              </span>
              <Badge tone={referralTone(referral.status)}>{referralStatusLabel(referral.status)}</Badge>
            </div>
            {referral.flags && referral.flags.length > 0 ? (
              <ul className="flex flex-wrap gap-2" aria-label="Warnings">
                {referral.flags.map((flag) => {
                  const { label, reason } = referralFlag(flag);
                  return (
                    <li key={flag} className="flex flex-wrap items-center gap-1 text-xs text-red-800" data-testid="referral-flag">
                      <Badge tone="danger">
                        <AlertTriangle className="mr-1 inline size-3" aria-hidden="true" />
                        {label}
                      </Badge>
                      <span>{reason}</span>
                    </li>
                  );
                })}
              </ul>
            ) : null}
            <p className="text-xs break-all text-slate-600">
              {referral.user_email}
              {referral.user_verified ? "" : " (e-mail not verified)"}
            </p>
            {referral.test_commission_cents > 0 ? (
              <p className="flex flex-wrap items-center gap-1 text-xs text-violet-900" data-testid="referral-test-commission">
                <Badge className="bg-violet-100 text-violet-800">Test</Badge>
                {formatCents(referral.test_commission_cents)} of commission from test payments (no money moved): not owed, never paid out.
              </p>
            ) : null}
            <p className="text-xs text-slate-500">
              Joined <time dateTime={referral.created}>{formatDate(referral.created)}</time>
              {referral.paid_at ? (
                <>
                  {" · "}last paid <time dateTime={referral.paid_at}>{formatDateTime(referral.paid_at)}</time>
                </>
              ) : null}
            </p>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm text-slate-700 tabular-nums">
                Commission {formatCents(referral.commission_cents)}
                {referral.pending_cents > 0 ? (
                  <span className="text-amber-800"> · {formatCents(referral.pending_cents)} pending</span>
                ) : null}
                {referral.pending_cents < 0 ? (
                  <span className="text-red-700" data-testid="referral-clawback">
                    {" "}
                    · {formatCents(-referral.pending_cents)} clawed back (refund or chargeback after payout), netted against the next payout
                  </span>
                ) : null}
              </span>
              {referral.pending_cents > 0 && referral.pending_cents < MIN_PAYOUT_CENTS ? (
                <span className="text-xs text-slate-600">Below the {formatCents(MIN_PAYOUT_CENTS)} minimum payout</span>
              ) : null}
              {referral.pending_cents >= MIN_PAYOUT_CENTS ? (
                <Button
                  size="sm"
                  onClick={() => onPay(referral)}
                  aria-label={`Pay ${formatCents(referral.pending_cents)} for ${referral.user_email}`}
                >
                  Pay
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </PagedListState>
  );
}

/** The payout method the affiliate entered (plain text, line breaks kept), or a note that there is none. */
function PayoutMethod({ value, testId }: { value: string; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-3">
      <p className="text-xs text-slate-500">Payout method</p>
      {value ? (
        <p className="text-sm break-words whitespace-pre-line text-slate-900" data-testid={testId}>
          {value}
        </p>
      ) : (
        <p className="text-sm text-slate-600" data-testid={testId}>
          Not set: the affiliate adds it on their Affiliate page.
        </p>
      )}
    </div>
  );
}

function PayDialog({ referral, payoutMethod, onClose }: { referral: ReferralRow; payoutMethod: string; onClose: () => void }) {
  // One attempt, one key: a retry after a network error cannot pay twice.
  const [key] = useState(newIdempotencyKey);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const amount = formatCents(referral.pending_cents);
  const confirm = async () => {
    setPending(true);
    setError("");
    const message = await payReferralNow(referral, key);
    setPending(false);
    if (message) setError(message);
    else onClose();
  };
  return (
    <Dialog
      open
      onClose={() => (pending ? undefined : onClose())}
      title="Pay commission"
      description={`Mark ${amount} of pending commission for ${referral.user_email} as paid?`}
    >
      <p className="text-sm text-slate-600">
        Send the money to the affiliate yourself (bank transfer, PayPal ...); this records the payout. No balance changes.
      </p>
      <div className="mt-3">
        <PayoutMethod value={payoutMethod} />
      </div>
      <LiveAlert tone="error" className="mt-3">
        {error}
      </LiveAlert>
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button onClick={() => void confirm()} pending={pending} pendingText="Paying...">
          Pay {amount}
        </Button>
      </div>
    </Dialog>
  );
}
