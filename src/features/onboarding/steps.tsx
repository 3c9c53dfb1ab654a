import { CreditCard, Globe2, Headphones, Rocket, Server, Sparkles, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

export interface OnboardingStep {
  id: "welcome" | "credits" | "proxies" | "locations" | "support" | "closing";
  title: string;
  icon: LucideIcon;
  body: ReactNode;
}

export const POPULAR_LOCATIONS = [
  "United States",
  "United Kingdom",
  "Germany",
  "France",
  "Canada",
  "Australia",
  "Japan",
  "Brazil",
] as const;

/** The six-step tour (spec 2.12). */
export function onboardingSteps(siteName: string, welcome: string | null): OnboardingStep[] {
  return [
    {
      id: "welcome",
      title: `Welcome to ${siteName}!`,
      icon: Sparkles,
      body: (
        <p>
          Let's take a quick tour of your dashboard. In a minute you'll know how to add credits, get proxies in the locations you need and
          where to find help.
        </p>
      ),
    },
    {
      id: "credits",
      title: "Add credits to your balance",
      icon: CreditCard,
      body: (
        <>
          <p>Your account runs on prepaid credits. Top up from Buy Credits and spend them on proxies whenever you need them.</p>
          {welcome ? (
            <p className="rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
              Tip: new accounts get <strong>{welcome} in free credits</strong> to try the service once their email address is verified.
            </p>
          ) : null}
        </>
      ),
    },
    {
      id: "proxies",
      title: "Choose your proxy type",
      icon: Server,
      body: (
        <ul className="space-y-3">
          <li>
            <strong>Residential proxies</strong> use real household IPs: the best success rates, city-level targeting and sticky sessions
            for scraping and account management.
          </li>
          <li>
            <strong>Datacenter proxies</strong> are ultra-fast with unlimited bandwidth and multiple protocols, ideal for high-volume tasks
            where speed matters most.
          </li>
        </ul>
      ),
    },
    {
      id: "locations",
      title: "Pick your locations",
      icon: Globe2,
      body: (
        <>
          <p>Buy proxies in any country we have in stock. Popular locations:</p>
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {POPULAR_LOCATIONS.map((place) => (
              <li key={place} className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-center text-sm">
                {place}
              </li>
            ))}
          </ul>
        </>
      ),
    },
    {
      id: "support",
      title: "Help is always close",
      icon: Headphones,
      body: (
        <ul className="list-disc space-y-2 pl-5">
          <li>Support tickets with live chat from your dashboard</li>
          <li>E-mail support for anything about your account or billing</li>
          <li>Documentation with setup guides and code examples</li>
        </ul>
      ),
    },
    {
      id: "closing",
      title: "You're all set!",
      icon: Rocket,
      body: <p>Add credits, buy your first proxies and start building. You can revisit the documentation any time from the header.</p>,
    },
  ];
}
