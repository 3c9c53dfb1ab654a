import { useStore } from "@nanostores/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { loadOverview, type OverviewData } from "@/features/account/overview-data";
import { Alert } from "@/components/ui/alert";
import { StatCard } from "@/components/ui/stat-card";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $balance } from "@/stores/balance";

const USE_CASES = [
  "Web scraping and data collection",
  "Social media management",
  "E-commerce price monitoring",
  "SEO and market research",
] as const;

function referralLink(code: string): string {
  return `${window.location.origin}/signup?ref=${encodeURIComponent(code)}`;
}

/** /dashboard: the overview with the user's real balance, proxies and transactions. */
export function AccountOverview() {
  return <AuthGate>{(user) => <Overview user={user} />}</AuthGate>;
}

function SectionHeading({ id, title, href }: { id: string; title: string; href: string }) {
  return (
    <div className="mb-4 flex items-center justify-between gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <a href={href} className="text-sm font-medium text-primary hover:underline" aria-label={`View all: ${title}`}>
        View all
      </a>
    </div>
  );
}

function Overview({ user }: { user: UserRecord }) {
  const [data, setData] = useState<OverviewData | null>(null);
  const [error, setError] = useState("");
  // The balance is live ($balance follows the balances row by realtime).
  const balance = useStore($balance);
  const controller = useRef<AbortController | null>(null);

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
    load();
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
        <h1 className="text-2xl font-bold text-slate-900">Welcome back, {name}</h1>
        <p className="text-sm text-slate-600">Here is an overview of your account.</p>
      </div>
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
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="recent-tx">
          <SectionHeading id="recent-tx" title="Recent Transactions" href="/dashboard/transactions" />
          {loading ? (
            <p className="text-sm text-slate-500">Loading...</p>
          ) : data && data.recentTransactions.length > 0 ? (
            <ul className="divide-y divide-slate-100">
              {data.recentTransactions.map((t) => (
                <li key={t.id} className="flex items-center justify-between py-2 text-sm">
                  <div>
                    <p className="font-medium text-slate-900">{t.description || t.type}</p>
                    <p className="text-xs text-slate-500">{formatDateTime(t.created)}</p>
                  </div>
                  <span className={t.amount_cents >= 0 ? "font-medium text-green-700" : "font-medium text-red-700"}>
                    {t.amount_cents >= 0 ? "+" : "-"}
                    {formatCents(Math.abs(t.amount_cents))}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">
              No transactions yet.{" "}
              <a href="/dashboard/buy-credits" className="text-primary hover:underline">
                Buy credits
              </a>{" "}
              to get started.
            </p>
          )}
        </section>
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="active-px">
          <SectionHeading id="active-px" title="Active Proxies" href="/dashboard/proxies" />
          {loading ? (
            <p className="text-sm text-slate-500">Loading...</p>
          ) : data && data.activeProxies.length > 0 ? (
            <>
              <ul className="divide-y divide-slate-100">
                {data.activeProxies.slice(0, 5).map((p) => (
                  <li key={p.id} className="flex flex-wrap items-center justify-between gap-x-3 py-2 text-sm">
                    <span className="min-w-0 font-mono break-all text-slate-900">
                      {p.host}:{p.port}
                    </span>
                    <span className="text-slate-500">
                      {p.type} · {p.country}
                    </span>
                  </li>
                ))}
              </ul>
              {data.activeProxies.length > 5 ? (
                <p className="mt-2 text-sm text-slate-500">+{data.activeProxies.length - 5} more proxies</p>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-slate-500">
              No active proxies.{" "}
              <a href="/dashboard/buy-proxies" className="text-primary hover:underline">
                Buy proxies
              </a>
              .
            </p>
          )}
        </section>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="use-cases">
          <h2 id="use-cases" className="mb-4 text-lg font-semibold">
            Popular Use Cases
          </h2>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
            {USE_CASES.map((useCase) => (
              <li key={useCase}>{useCase}</li>
            ))}
          </ul>
          <a href="/use-cases" className="mt-3 inline-block text-sm text-primary hover:underline">
            Explore all use cases
          </a>
        </section>
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="testing">
          <h2 id="testing" className="mb-4 text-lg font-semibold">
            Testing Your Proxies
          </h2>
          <p className="mb-2 text-sm text-slate-600">Check that a proxy works by asking an IP-echo service which address it sees:</p>
          <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
            <code>curl -x http://USERNAME:PASSWORD@HOST:PORT https://api.ipify.org</code>
          </pre>
          <a href="/docs" className="mt-3 inline-block text-sm text-primary hover:underline">
            Read the documentation
          </a>
        </section>
      </div>
      {data?.affiliateCode ? (
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="referral">
          <h2 id="referral" className="mb-2 text-lg font-semibold">
            Your Referral Link
          </h2>
          <p className="mb-2 text-sm text-slate-600">Share it: people who sign up through it are linked to your affiliate account.</p>
          <code className="block overflow-x-auto rounded-md bg-slate-100 px-3 py-2 text-sm" data-testid="referral-link">
            {referralLink(data.affiliateCode)}
          </code>
        </section>
      ) : null}
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="quick-actions">
        <h2 id="quick-actions" className="mb-4 text-lg font-semibold">
          Quick Actions
        </h2>
        <div className="flex flex-wrap gap-3 text-sm">
          {[
            ["/dashboard/buy-credits", "Buy Credits"],
            ["/dashboard/buy-proxies", "Buy Proxies"],
            ["/dashboard/support", "Get Support"],
            ["/dashboard/settings", "Account Settings"],
            ["/docs", "Documentation"],
            ["/use-cases", "Use Cases"],
          ].map(([href, label]) => (
            <a key={href} href={href} className="rounded-md border border-slate-300 px-3 py-2 hover:bg-slate-50">
              {label}
            </a>
          ))}
        </div>
      </section>
    </div>
  );
}
