// Copy of the Pricing page (spec 2.4 and the marketing claims of section 1).
import { MONEY_BACK_GUARANTEE, REFUND_WINDOW_DAYS, TERM_TEXT } from "@/lib/catalog";

/** The highlights; the welcome credit line only while the setting grants one. */
export const pricingHighlights = (welcome: string | null): string[] => [
  ...(welcome ? [`${welcome} in free credits for new users`] : []),
  "Prepaid credits that never expire",
  MONEY_BACK_GUARANTEE,
  "No contracts, no hidden fees",
];

export const pricingFaq = (welcome: string | null) => [
  {
    question: "How does the prepaid credit balance work?",
    answer: `You top up your account with credits and spend them on proxies whenever you need them.${welcome ? ` New users get ${welcome} in free credits to try the service.` : ""} Credits never expire, so there is no monthly commitment.`,
  },
  {
    // Not "prorated plan changes" (issue #15): the shop sells each proxy for a term, there are no plans to change.
    question: "Do I need a plan or a subscription?",
    answer: `No. You pay per proxy from your credit balance: each proxy is bought for ${TERM_TEXT} at the price of its type. Renew the proxies you want to keep, one by one or with auto-renew; the others simply expire. There are no plans to upgrade or downgrade and no partial-month charges.`,
  },
  {
    question: "Which payment methods do you accept?",
    answer:
      "We accept all major credit and debit cards, PayPal and cryptocurrency. Payments are processed securely by our card payment provider; we never store your card details.",
  },
  {
    question: "Do you offer refunds?",
    answer: `Yes. Every purchase is covered by our ${MONEY_BACK_GUARANTEE}: if the service does not work for you, contact support within ${REFUND_WINDOW_DAYS} days for a full refund.`,
  },
];
