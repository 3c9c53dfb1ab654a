// The parts of the dashboard overview: a list section with its loading and empty text,
// the guide sections every customer sees, and why a withheld welcome credit did not come.
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { curlCommand, IP_ECHO_PATH, masked } from "@/lib/connection-lines";
import { endpoint } from "@/lib/endpoint";
import type { TestProxy } from "@/features/account/overview-data";

const USE_CASES = [
  "Web scraping and data collection",
  "Social media management",
  "E-commerce price monitoring",
  "SEO and market research",
] as const;

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

/** What a list section says when it has no rows: "No active proxies. [Buy proxies]." */
interface EmptyText {
  text: string;
  /** The link's text and target (where to get some). */
  action: string;
  href: string;
  /** What follows the link. */
  after: string;
}

/** A section of the overview listing recent rows; `children` is null when there are none. */
export function OverviewList({
  id,
  title,
  href,
  loading,
  empty,
  children,
}: {
  id: string;
  title: string;
  /** The page with all of them ("View all"). */
  href: string;
  loading: boolean;
  empty: EmptyText;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby={id}>
      <SectionHeading id={id} title={title} href={href} />
      {loading ? (
        <p className="text-sm text-slate-500">Loading...</p>
      ) : (
        (children ?? (
          <p className="text-sm text-slate-500">
            {empty.text}{" "}
            <a href={empty.href} className="text-primary underline hover:no-underline">
              {empty.action}
            </a>
            {empty.after}
          </p>
        ))
      )}
    </section>
  );
}

/** Popular use cases and how to test a proxy: with the customer's newest active proxy, or placeholders without one. */
export function OverviewGuides({ testProxy, origin }: { testProxy: TestProxy | null; origin: string }) {
  const command = testProxy ? curlCommand(testProxy, origin) : null;
  return (
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
        <p className="mb-2 text-sm text-slate-600">
          {testProxy ? (
            <>
              Check that your proxy <span className="font-mono break-all">{endpoint(testProxy)}</span> works: this asks our IP-echo endpoint
              which address it sees through it.
            </>
          ) : (
            "Check that a proxy works by asking our IP-echo endpoint which address it sees. Replace the placeholders with a proxy's details from My Proxies:"
          )}
        </p>
        {/* Scrolls sideways on a narrow screen: focusable and named, so a keyboard can scroll it too. */}
        <pre
          className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100 focus-visible:ring-2 focus-visible:ring-primary focus-visible:outline-none"
          tabIndex={0}
          role="region"
          aria-label="Example: test a proxy with curl"
          data-testid="curl-example"
        >
          <code>
            {testProxy
              ? masked(testProxy, (p) => curlCommand(p, origin))
              : `curl -x http://USERNAME:PASSWORD@HOST:PORT ${origin}${IP_ECHO_PATH}`}
          </code>
        </pre>
        {command ? (
          <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <CopyButton value={command} label="Copy curl command" className="border border-slate-300" />
            <span>The copy includes the password.</span>
          </div>
        ) : null}
        <a href="/docs" className="mt-3 inline-block text-sm text-primary hover:underline">
          Read the documentation
        </a>
      </section>
    </div>
  );
}

export function QuickActions() {
  return (
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
  );
}

/**
 * Why the welcome credit verifying promised did not come (issue #28): the per-address daily
 * limit withheld it (users.welcome_credit_withheld). `credit`: "$5", or null when the shop
 * gives none now.
 */
export function WelcomeWithheldNotice({ credit }: { credit: string | null }) {
  return (
    <Alert tone="warning">
      <p className="font-semibold" data-testid="welcome-withheld">
        Your e-mail is verified, but no welcome credit was added.
      </p>
      <p className="mt-1">
        The {credit ? `${credit} ` : ""}welcome credit goes to a limited number of new accounts from one network address a day, and yours
        had reached it when you signed up. Your account works normally:{" "}
        <a href="/dashboard/buy-credits" className="font-medium underline">
          buy credits
        </a>{" "}
        to get started, or{" "}
        <a href="/dashboard/support" className="font-medium underline">
          contact support
        </a>{" "}
        if you think this is wrong.
      </p>
    </Alert>
  );
}
