import { useCallback, useEffect, useRef, useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { LocalDateTime } from "@/components/session/local-date-time";
import { VerifyEmailNotice } from "@/components/session/verify-email-notice";
import { loadOverview, type OverviewData, type overviewFirstData } from "@/features/account/overview-data";
import { Alert } from "@/components/ui/alert";
import { OverviewGuides, OverviewList, QuickActions, WelcomeWithheldNotice } from "@/features/account/components/overview-sections";
import { bannerDismissed, dismissBanner, isNewAccount, takeFirstVisit } from "@/features/account/welcome";
import { StatCard } from "@/components/ui/stat-card";
import { errorMessage, isAbort } from "@/lib/api-error";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { endpoint } from "@/lib/endpoint";
import { proxyTitle } from "@/lib/proxy-title";
import { formatCents, formatSignedCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import type { FirstDataProps } from "@/lib/server/first-data";
import { useHydrated } from "@/lib/use-hydrated";
import { useBalance, type BalanceSeed } from "@/stores/balance";
import { seedFor } from "@/stores/seed";

/** The sign-up link with the user's code (the origin only in the browser: the server can't know it). */
function referralLink(code: string, withOrigin: boolean): string {
  const path = `/signup?ref=${encodeURIComponent(code)}`;
  return withOrigin ? `${window.location.origin}${path}` : path;
}

interface AccountOverviewProps extends FirstDataProps<typeof overviewFirstData> {
  /** The welcome credit verifying the e-mail brings, as the public pages word it ("$5"); null: none. */
  welcomeCredit?: string | null;
  /** The shop's own address (APP_URL's origin), where its IP-echo endpoint answers. */
  siteOrigin: string;
}

/** /dashboard: the overview with the user's real balance, proxies and transactions. */
export function AccountOverview({ initialUser = null, initial = null, welcomeCredit = null, siteOrigin }: AccountOverviewProps) {
  return (
    <AuthGate initialUser={initialUser}>
      {(user) => (
        <Overview
          user={user}
          initial={seedFor(initialUser, user, initial?.overview)}
          balanceSeed={seedFor(initialUser, user, initial?.balance)}
          welcomeCredit={welcomeCredit}
          siteOrigin={siteOrigin}
        />
      )}
    </AuthGate>
  );
}

/**
 * "Welcome" on a customer's first visit, "Welcome back" after. First visit = an account
 * younger than a week (a server fact, so the HTML already says it and an old customer on
 * a new device is still welcomed back) whose overview this browser has not shown before
 * (remembered per user id, read once hydrated so the HTML and the first render agree).
 */
function greetingFor(user: UserRecord, now: number, hydrated: boolean): string {
  if (!isNewAccount(user.created, now)) return "Welcome back";
  return !hydrated || takeFirstVisit(user.id) ? "Welcome" : "Welcome back";
}

function Overview({
  user,
  initial,
  balanceSeed,
  welcomeCredit,
  siteOrigin,
}: {
  user: UserRecord;
  initial: OverviewData | null;
  balanceSeed: BalanceSeed | null;
  welcomeCredit: string | null;
  siteOrigin: string;
}) {
  // The server's first data shows at once; the browser loads only what the server could not.
  const [data, setData] = useState<OverviewData | null>(initial);
  const [error, setError] = useState("");
  // The balance is live ($balance follows the balances row by realtime).
  const balance = useBalance(balanceSeed);
  const controller = useRef<AbortController | null>(null);
  const rendered = useRef(initial !== null);
  const hydrated = useHydrated();
  const [now] = useState(() => Date.now());
  const greeting = greetingFor(user, now, hydrated);
  // The verify-e-mail banner until verified, unless dismissed (remembered per user, read once hydrated).
  const [dismissedNow, setDismissedNow] = useState(false);
  const bannerOff = !hydrated || dismissedNow || bannerDismissed(user.id);
  const dismiss = () => {
    dismissBanner(user.id);
    setDismissedNow(true);
  };

  const load = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    loadOverview(user.id, current.signal)
      .then((next) => {
        setData(next);
        setError("");
      })
      .catch((err: unknown) => {
        if (!isAbort(err)) setError(errorMessage(err));
      });
  }, [user.id]);

  useEffect(() => {
    if (rendered.current) rendered.current = false;
    else load();
    return () => controller.current?.abort();
  }, [load]);

  // A balance change means a new ledger row (a purchase, a payment, an admin credit):
  // reload the lists behind it too, keeping the current ones on screen meanwhile.
  const seenCents = useRef<number | null>(null);
  const liveCents = balance.status === "ready" ? balance.cents : null;
  useEffect(() => {
    if (liveCents === null) return;
    if (seenCents.current !== null && seenCents.current !== liveCents) load();
    seenCents.current = liveCents;
  }, [liveCents, load]);

  const loading = !data && !error;
  const name = user.first_name || user.email;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">
          {greeting}, {name}
        </h1>
        <p className="text-sm text-slate-600">Here is an overview of your account.</p>
      </div>
      {user.verified || bannerOff ? null : <VerifyEmailNotice email={user.email} credit={welcomeCredit} onDismiss={dismiss} />}
      {user.verified && user.welcome_credit_withheld ? <WelcomeWithheldNotice credit={welcomeCredit} /> : null}
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          label="Current Balance"
          value={balance.status === "error" ? "Unavailable" : formatCents(balance.cents)}
          loading={balance.status === "loading"}
          testId="overview-balance"
        />
        <StatCard label="Active Proxies" value={String(data?.activeProxyCount ?? 0)} loading={loading} />
        <StatCard label="Total Spent" value={formatCents(data?.totalSpentCents ?? 0)} loading={loading} />
        <StatCard label="Account Status" value="Active" loading={false} />
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <OverviewList
          id="recent-tx"
          title="Recent Transactions"
          href="/dashboard/transactions"
          loading={loading}
          empty={{ text: "No transactions yet.", action: "Buy credits", href: "/dashboard/buy-credits", after: " to get started." }}
        >
          {data && data.recentTransactions.length > 0 ? (
            <ul className="divide-y divide-slate-100">
              {data.recentTransactions.map((t) => (
                <li key={t.id} className="flex items-center justify-between gap-3 py-2 text-sm" data-testid="overview-transaction">
                  <div className="min-w-0">
                    <p className="font-medium break-words text-slate-900">{t.description || t.type}</p>
                    <LocalDateTime value={t.created} className="block text-xs text-slate-500" />
                  </div>
                  <span
                    className={
                      t.amount_cents >= 0
                        ? "shrink-0 font-medium whitespace-nowrap text-green-700 tabular-nums"
                        : "shrink-0 font-medium whitespace-nowrap text-red-700 tabular-nums"
                    }
                  >
                    {formatSignedCents(t.amount_cents)}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </OverviewList>
        <OverviewList
          id="active-px"
          title="Active Proxies"
          href="/dashboard/proxies"
          loading={loading}
          empty={{ text: "No active proxies.", action: "Buy proxies", href: "/dashboard/buy-proxies", after: "." }}
        >
          {data && data.activeProxies.length > 0 ? (
            <>
              <ul className="divide-y divide-slate-100">
                {data.activeProxies.slice(0, 5).map((p) => (
                  <li key={p.id} className="flex flex-wrap items-center justify-between gap-x-3 py-2 text-sm">
                    <span className="min-w-0 font-medium break-words text-slate-900">{proxyTitle(p)}</span>
                    <span className="min-w-0 break-all text-slate-500">
                      {PROXY_TYPE_LABELS[p.type]} · <span className="font-mono">{endpoint(p)}</span>
                    </span>
                  </li>
                ))}
              </ul>
              {data.activeProxies.length > 5 ? (
                <p className="mt-2 text-sm text-slate-500">
                  +{data.activeProxies.length - 5} more {data.activeProxies.length === 6 ? "proxy" : "proxies"}
                </p>
              ) : null}
            </>
          ) : null}
        </OverviewList>
      </div>
      <OverviewGuides testProxy={data?.testProxy ?? null} origin={siteOrigin} />
      {data?.affiliateCode ? (
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="referral">
          <h2 id="referral" className="mb-2 text-lg font-semibold">
            Your Referral Link
          </h2>
          <p className="mb-2 text-sm text-slate-600">Share it: people who sign up through it are linked to your affiliate account.</p>
          <code className="block rounded-md bg-slate-100 px-3 py-2 text-sm break-all" data-testid="referral-link">
            {referralLink(data.affiliateCode, hydrated)}
          </code>
        </section>
      ) : null}
      <QuickActions />
    </div>
  );
}
