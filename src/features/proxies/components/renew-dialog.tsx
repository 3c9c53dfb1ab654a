import { useStore } from "@nanostores/react";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { VerifyEmailNotice } from "@/components/session/verify-email-notice";
import { TERM_TEXT } from "@/lib/catalog";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $balance } from "@/stores/balance";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { MAX_RENEWAL, proxyCount, renewalQuote } from "@/features/proxies/renewal";
import { $renewal, closeRenewal, confirmRenewal, retryRenewalPrices } from "@/features/proxies/renewal-store";
import { endpoint } from "@/lib/endpoint";

const LISTED = 5;

/** Renewing one proxy or a selection: the cost at today's prices against the live balance. Loaded on first use. */
export function RenewDialog({ user }: { user: UserRecord }) {
  const state = useStore($renewal);
  const balance = useStore($balance);
  const count = state.proxies.length;
  const quote = state.prices ? renewalQuote(state.proxies, state.prices, balance.cents) : null;
  const balanceReady = balance.status === "ready";
  const tooMany = count > MAX_RENEWAL;
  const canRenew =
    user.verified && !!quote && quote.unpriced.length === 0 && quote.totalCents > 0 && balanceReady && quote.shortCents === 0 && !tooMany;

  return (
    <Dialog
      open={state.open}
      onClose={closeRenewal}
      title={`Renew ${proxyCount(count)}`}
      description={`Each proxy gets another ${TERM_TEXT} (from its expiry date, or from now if it has expired) at today's price.`}
      className="max-w-lg"
    >
      <div className="space-y-4">
        {!user.verified ? <VerifyEmailNotice email={user.email} /> : null}

        <ul className="space-y-1 text-sm" aria-label="Proxies to renew">
          {state.proxies.slice(0, LISTED).map((proxy) => (
            <li key={proxy.id} className="font-mono break-all text-slate-800">
              {endpoint(proxy)}
            </li>
          ))}
          {count > LISTED ? <li className="text-slate-500">and {proxyCount(count - LISTED)} more</li> : null}
        </ul>

        {tooMany ? (
          <Alert tone="warning">
            At most {MAX_RENEWAL} proxies can be renewed at once. Select {MAX_RENEWAL} or fewer.
          </Alert>
        ) : null}

        <div aria-live="polite" className="space-y-3">
          {state.pricesError ? (
            <LoadError message={state.pricesError} onRetry={retryRenewalPrices} />
          ) : !quote ? (
            <p className="text-sm text-slate-500">Loading prices...</p>
          ) : (
            <>
              {quote.unpriced.length > 0 ? (
                <Alert tone="warning">
                  {quote.unpriced.map((t) => PROXY_TYPE_LABELS[t]).join(", ")} proxies are not for sale right now, so they cannot be
                  renewed.
                </Alert>
              ) : null}
              <dl className="divide-y divide-slate-100 rounded-md border border-slate-200 text-sm">
                {quote.lines.map((line) => (
                  <div key={line.type} className="flex justify-between gap-3 px-3 py-2">
                    <dt className="text-slate-600">
                      {line.label} × {line.count} at {formatCents(line.unitCents)}
                    </dt>
                    <dd className="text-slate-900">{formatCents(line.totalCents)}</dd>
                  </div>
                ))}
                <div className="flex justify-between gap-3 px-3 py-2 font-semibold">
                  <dt>Total</dt>
                  <dd data-testid="renewal-total">{formatCents(quote.totalCents)}</dd>
                </div>
                <div className="flex justify-between gap-3 px-3 py-2">
                  <dt className="text-slate-600">Your balance</dt>
                  <dd data-testid="renewal-balance">{balanceReady ? formatCents(balance.cents) : "Loading..."}</dd>
                </div>
                {balanceReady && quote.shortCents === 0 ? (
                  <div className="flex justify-between gap-3 px-3 py-2">
                    <dt className="text-slate-600">Balance after renewal</dt>
                    <dd>{formatCents(balance.cents - quote.totalCents)}</dd>
                  </div>
                ) : null}
              </dl>
              {balanceReady && quote.shortCents > 0 ? (
                <Alert tone="warning">
                  Insufficient balance. Need {formatCents(quote.shortCents)} more.{" "}
                  <a href="/dashboard/buy-credits" className="font-medium underline">
                    Buy Credits
                  </a>
                </Alert>
              ) : null}
            </>
          )}
          {state.error ? <Alert tone="error">{state.error}</Alert> : null}
        </div>

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={state.pending} onClick={closeRenewal}>
            Cancel
          </Button>
          <Button disabled={!canRenew} pending={state.pending} pendingText="Renewing..." onClick={() => void confirmRenewal()}>
            {quote && quote.totalCents > 0 ? `Renew for ${formatCents(quote.totalCents)}` : "Renew"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
