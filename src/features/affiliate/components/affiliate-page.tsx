// /dashboard/affiliate (spec 2.19): the user's real referral figures, code and link, the
// programme's terms, the payout method (its form loads when opened), recent referrals, and
// marketing materials made of the link: a banner snippet and a text to copy.
import { useStore } from "@nanostores/react";
import { useState } from "react";
import { DollarSign, Clock, CalendarDays, Users, Share2, Megaphone } from "lucide-react";
import { AuthGate } from "@/components/session/auth-gate";
import { LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { StatGrid } from "@/components/ui/stat-grid";
import { ListSkeleton, ListState } from "@/components/ui/list-state";
import { $affiliate, reloadAffiliate, showAffiliate } from "@/features/affiliate/stores";
import {
  BANNER_STYLE,
  bannerHtml,
  bannerText,
  payoutScheduleLabel,
  promoText,
  referralCode,
  referralLink,
  shareLinks,
} from "@/features/affiliate/links";
import type { AffiliateSummary } from "@/features/affiliate/api";
import { cn } from "@/lib/cn";
import { lazyComponent } from "@/lib/lazy-component";
import { formatCents } from "@/lib/money";
import { plural } from "@/lib/plural";
import type { UserRecord } from "@/lib/pocketbase-types";

const STEPS = [
  { title: "Share your link", text: "Send your referral link to friends, customers or your audience." },
  { title: "They sign up", text: "People who create an account through your link are linked to you." },
  { title: "They buy credits", text: "Every credit purchase they pay for earns you a commission." },
  { title: "You get paid", text: "Commissions are paid out once you reach the minimum payout." },
] as const;

const PayoutMethodForm = lazyComponent(() => import("@/features/affiliate/components/payout-method-form"), "PayoutMethodForm");
/** Loaded only when there are referrals (the empty state needs no table); skeleton rows meanwhile. */
const ReferralsTable = lazyComponent(
  () => import("@/features/affiliate/components/referrals-table"),
  "ReferralsTable",
  <ListSkeleton label="Loading referrals" rows={2} rowClassName="h-8" />,
);

export function AffiliatePage({ siteName }: { siteName: string }) {
  return <AuthGate>{(user) => <Affiliate user={user} siteName={siteName} />}</AuthGate>;
}

function Affiliate({ user, siteName }: { user: UserRecord; siteName: string }) {
  const { status, error, data } = useStore($affiliate);
  const loading = status === "loading" && !data;
  const failed = status === "error" && !data;
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
      <div aria-live="polite">{status === "error" ? <LoadError message={error} onRetry={reloadAffiliate} /> : null}</div>

      <StatGrid
        testId="affiliate-stats"
        loading={loading}
        stats={[
          { label: "Total Referrals", value: String(data?.total_referrals ?? 0), icon: Users },
          { label: "Total Earnings", value: formatCents(data?.total_earnings_cents ?? 0), icon: DollarSign },
          { label: "Pending Earnings", value: formatCents(data?.pending_earnings_cents ?? 0), icon: Clock },
          { label: "This Month", value: formatCents(data?.this_month_earnings_cents ?? 0), icon: CalendarDays },
        ]}
      />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card className="min-w-0 space-y-5">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Share2 className="size-5" aria-hidden="true" /> Your Referral Link
          </h2>
          <CopyField id="referral-code" label="Referral code" value={code} inputClassName="max-w-[12rem] tracking-wider" />
          <CopyField id="referral-link" label="Referral link" value={link} inputClassName="min-w-0 text-xs sm:text-sm" />
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
                ["Cookie duration", plural(program.cookie_days, "day", "days")],
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
          {data ? <PayoutMethod data={data} /> : null}
        </Card>
      </div>

      <section aria-labelledby="recent-referrals" className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <h2 id="recent-referrals" className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-900">
          Recent Referrals
        </h2>
        {failed ? null : (
          <ListState
            status={data ? "ready" : "loading"}
            error=""
            loaded={data !== null}
            empty={data?.recent_referrals.length === 0}
            onRetry={reloadAffiliate}
            loadingLabel="Loading referrals"
            skeletonRows={2}
            skeletonClassName="h-8"
            emptyState={
              <div className="p-5">
                <EmptyState
                  icon={Users}
                  title="No referrals yet"
                  text="Share your referral link: people who sign up with it appear here."
                />
              </div>
            }
            className=""
          >
            <ReferralsTable referrals={data?.recent_referrals ?? []} />
          </ListState>
        )}
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
        <Card className="min-w-0 space-y-4">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Megaphone className="size-5" aria-hidden="true" /> Marketing Materials
          </h2>
          <div className="space-y-2">
            <p className="text-sm font-medium text-slate-700">Banner</p>
            <p className="text-sm text-slate-600">
              Paste this HTML in your website: it shows the banner below, linked to your referral link.
            </p>
            <div className="rounded-lg border border-dashed border-slate-300 p-3">
              <a href={link} style={BANNER_STYLE} data-testid="affiliate-banner">
                {bannerText(siteName)}
              </a>
            </div>
          </div>
          <CopyField id="banner-html" label="Banner HTML" value={bannerHtml(link, siteName)} />
          <CopyField id="promo-text" label="Text for e-mails and posts" value={promoText(link, siteName)} />
        </Card>
      </div>
    </div>
  );
}

/** The payout method shop admins see when they pay (plain text), and its form on demand. */
function PayoutMethod({ data }: { data: AffiliateSummary }) {
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState("");
  return (
    <div className="mt-4 space-y-2 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900">Payout method</h3>
      {editing ? (
        <PayoutMethodForm
          initial={data.payout_method}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            showAffiliate(saved);
            setEditing(false);
            setNotice(saved.payout_method ? "Payout method saved." : "Payout method removed.");
          }}
        />
      ) : (
        <>
          <p className="text-sm break-words whitespace-pre-line text-slate-900" data-testid="payout-method">
            {data.payout_method || "Not set yet: tell us how to pay your commissions (a PayPal e-mail or bank details)."}
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setNotice("");
              setEditing(true);
            }}
          >
            {data.payout_method ? "Change payout method" : "Add payout method"}
          </Button>
        </>
      )}
      <p aria-live="polite" className="text-sm text-green-700">
        {notice}
      </p>
    </div>
  );
}

/**
 * A read-only value with its label and a copy button ("Copy referral code"); the value is in
 * small type unless `inputClassName` says otherwise.
 */
function CopyField(props: { id: string; label: string; value: string; inputClassName?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={props.id} className="block text-sm font-medium text-slate-700">
        {props.label}
      </label>
      <div className="flex items-center gap-2">
        <Input
          id={props.id}
          readOnly
          value={props.value}
          className={cn("bg-slate-50 font-mono", props.inputClassName ?? "min-w-0 text-xs")}
        />
        <CopyButton
          value={props.value}
          label={`Copy ${props.label.toLowerCase()}`}
          className="h-10 shrink-0 border border-slate-300 px-3"
        />
      </div>
    </div>
  );
}
