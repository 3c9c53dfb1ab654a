// /dashboard/affiliate (spec 2.19): the user's real referral figures, code and link, the
// programme's terms, recent referrals. Marketing materials don't exist yet: "Coming soon".
import { DollarSign, Clock, CalendarDays, Users, Share2, Megaphone, Mail, LayoutTemplate, Image } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { StatCard } from "@/components/ui/stat-card";
import { loadAffiliate, type AffiliateSummary } from "@/features/affiliate/api";
import { payoutScheduleLabel, referralCode, referralLink, shareLinks } from "@/features/affiliate/links";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDate } from "@/lib/dates";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";

const STEPS = [
  { title: "Share your link", text: "Send your referral link to friends, customers or your audience." },
  { title: "They sign up", text: "People who create an account through your link are linked to you." },
  { title: "They buy credits", text: "Every credit purchase they pay for earns you a commission." },
  { title: "You get paid", text: "Commissions are paid out once you reach the minimum payout." },
] as const;

const MATERIALS = [
  { title: "Banner Ads", text: "Ready-made banners in common sizes for your website.", icon: Image },
  { title: "Email Templates", text: "Copy you can send to your list or customers.", icon: Mail },
  { title: "Landing Pages", text: "Pages tailored to your audience, with your code built in.", icon: LayoutTemplate },
] as const;

export function AffiliatePage({ siteName }: { siteName: string }) {
  return <AuthGate>{(user) => <Affiliate user={user} siteName={siteName} />}</AuthGate>;
}

function Affiliate({ user, siteName }: { user: UserRecord; siteName: string }) {
  const [data, setData] = useState<AffiliateSummary | null>(null);
  const [error, setError] = useState("");
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    setError("");
    setAttempt((n) => n + 1);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    loadAffiliate(controller.signal)
      .then((summary) => {
        setData(summary);
        setError("");
      })
      .catch((err: unknown) => {
        if (!isAbort(err)) setError(errorMessage(err));
      });
    return () => controller.abort();
  }, [user.id, attempt]);

  const loading = !data && !error;
  const code = data?.code || referralCode(user.id);
  const link = referralLink(window.location.origin, code);
  const program = data?.program;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Affiliate Program</h1>
        <p className="text-sm text-slate-600">
          Earn {program ? `${program.commission_percent}%` : "a"} commission on the credit purchases of everyone you refer.
        </p>
      </div>
      <div aria-live="polite">{error ? <LoadError message={error} onRetry={retry} /> : null}</div>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="affiliate-stats">
        <StatCard
          label="Total Referrals"
          value={String(data?.total_referrals ?? 0)}
          icon={<Users className="size-5" aria-hidden="true" />}
          loading={loading}
        />
        <StatCard
          label="Total Earnings"
          value={formatCents(data?.total_earnings_cents ?? 0)}
          icon={<DollarSign className="size-5" aria-hidden="true" />}
          loading={loading}
        />
        <StatCard
          label="Pending Earnings"
          value={formatCents(data?.pending_earnings_cents ?? 0)}
          icon={<Clock className="size-5" aria-hidden="true" />}
          loading={loading}
        />
        <StatCard
          label="This Month"
          value={formatCents(data?.this_month_earnings_cents ?? 0)}
          icon={<CalendarDays className="size-5" aria-hidden="true" />}
          loading={loading}
        />
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card className="min-w-0 space-y-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Share2 className="size-5" aria-hidden="true" /> Your Referral Link
          </h2>
          <div className="space-y-1">
            <label htmlFor="referral-code" className="block text-sm font-medium text-slate-700">
              Referral code
            </label>
            <div className="flex items-center gap-2">
              <Input id="referral-code" readOnly value={code} className="max-w-[12rem] bg-slate-50 font-mono tracking-wider" />
              <CopyButton value={code} label="Copy referral code" className="h-10 border border-slate-300 px-3" />
            </div>
          </div>
          <div className="space-y-1">
            <label htmlFor="referral-link" className="block text-sm font-medium text-slate-700">
              Referral link
            </label>
            <div className="flex items-center gap-2">
              <Input id="referral-link" readOnly value={link} className="min-w-0 bg-slate-50 font-mono text-xs sm:text-sm" />
              <CopyButton value={link} label="Copy referral link" className="h-10 shrink-0 border border-slate-300 px-3" />
            </div>
          </div>
          <div>
            <p className="mb-2 text-sm font-medium text-slate-700">Share</p>
            <div className="flex flex-wrap gap-2">
              {shareLinks(link, siteName).map(({ site, href }) => (
                <a
                  key={site}
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex h-9 items-center rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50"
                >
                  Share on {site}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ))}
            </div>
          </div>
        </Card>

        <Card className="min-w-0">
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Program Details</h2>
          {program ? (
            <dl className="divide-y divide-slate-100 text-sm" data-testid="program-details">
              {[
                ["Commission rate", `${program.commission_percent}%`],
                ["Cookie duration", `${program.cookie_days} days`],
                ["Minimum payout", formatCents(program.minimum_payout_cents)],
                ["Payout schedule", payoutScheduleLabel(program.payout_schedule)],
              ].map(([term, value]) => (
                <div key={term} className="flex justify-between gap-3 py-2">
                  <dt className="text-slate-600">{term}</dt>
                  <dd className="font-medium text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          ) : loading ? (
            <div className="space-y-3">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-5 w-full" />
              ))}
            </div>
          ) : null}
        </Card>
      </div>

      <section aria-labelledby="recent-referrals" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="recent-referrals" className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-900">
          Recent Referrals
        </h2>
        {loading ? (
          <div className="space-y-3 p-5">
            <span className="sr-only">Loading referrals...</span>
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : data && data.recent_referrals.length > 0 ? (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="px-5 py-2 font-medium">
                    Name
                  </th>
                  <th scope="col" className="px-5 py-2 font-medium">
                    Email
                  </th>
                  <th scope="col" className="px-5 py-2 font-medium">
                    Date
                  </th>
                  <th scope="col" className="px-5 py-2 text-right font-medium">
                    Commission
                  </th>
                  <th scope="col" className="px-5 py-2 font-medium">
                    Status
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.recent_referrals.map((r) => (
                  <tr key={r.id} data-testid="referral-row">
                    <td className="px-5 py-3 font-medium text-slate-900">{r.name || "-"}</td>
                    <td className="px-5 py-3 text-slate-600">{r.email}</td>
                    <td className="px-5 py-3 whitespace-nowrap text-slate-600">{formatDate(r.created)}</td>
                    <td className="px-5 py-3 text-right font-medium text-slate-900">{formatCents(r.commission_cents)}</td>
                    <td className="px-5 py-3">
                      <Badge tone={r.status === "paid" ? "success" : "warning"}>{r.status === "paid" ? "Paid" : "Pending"}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : data ? (
          <div className="p-5">
            <EmptyState icon={Users} title="No referrals yet" text="Share your referral link: people who sign up with it appear here." />
          </div>
        ) : null}
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">How It Works</h2>
          <ol className="space-y-4">
            {STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-3">
                <span
                  className="grid size-7 shrink-0 place-items-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <div>
                  <p className="font-medium text-slate-900">{step.title}</p>
                  <p className="text-sm text-slate-600">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </Card>
        <Card>
          <h2 className="mb-4 flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Megaphone className="size-5" aria-hidden="true" /> Marketing Materials
          </h2>
          <ul className="space-y-3">
            {MATERIALS.map(({ title, text, icon: Icon }) => (
              <li key={title} className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-3">
                <div className="flex min-w-0 items-start gap-3">
                  <Icon className="mt-0.5 size-5 shrink-0 text-slate-500" aria-hidden="true" />
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">{title}</p>
                    <p className="text-sm text-slate-600">{text}</p>
                  </div>
                </div>
                <Button variant="secondary" size="sm" disabled className="shrink-0" aria-label={`${title}: coming soon`}>
                  Coming soon
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}
