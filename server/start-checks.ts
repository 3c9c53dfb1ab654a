// What `npm start` (scripts/start.ts) decides from its environment before anything starts:
// the refusals of a risky configuration, the payment provider the hooks will choose
// (pocketbase/pb_hooks/lib/money/payments.js) and how the start banner names it.

type Env = Readonly<Record<string, string | undefined>>;

/** True for a HOST that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return ["127.0.0.1", "localhost", "::1"].includes(host);
}

/**
 * Why the shop must not start with this environment (empty: it may):
 * - a non-loopback HOST without SMTP_HOST: the local mail sink would print every sign-in
 *   code and verification or password link to the console (security review #13, finding 9);
 * - only one of STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET (finding 2): PocketBase refuses
 *   this too, in the same words.
 */
export function startupProblems(env: Env, host: string): string[] {
  const problems: string[] = [];
  if (!isLoopbackHost(host) && !env["SMTP_HOST"]) {
    problems.push(
      `HOST=${host} is reachable from other machines, but SMTP_HOST is not set: the shop would catch its mails on a local sink and print sign-in codes and verification and password links to this console. Set SMTP_HOST (and SMTP_PORT, SMTP_USERNAME, SMTP_PASSWORD, SMTP_TLS, MAIL_FROM), or keep HOST=127.0.0.1.`,
    );
  }
  const key = env["STRIPE_SECRET_KEY"];
  const secret = env["STRIPE_WEBHOOK_SECRET"];
  if (key && !secret) {
    problems.push("STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is missing: set both to take payments with Stripe, or neither.");
  }
  if (secret && !key) {
    problems.push("STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is missing: set both to take payments with Stripe, or neither.");
  }
  return problems;
}

/**
 * PAYMENTS_TEST_MODE for the hooks: its value when set, else "true" on a loopback HOST (the
 * embedded default buys credits with the labelled test provider), else unset (no test
 * money on a public host unless asked for).
 */
export function paymentsTestMode(env: Env, host: string): string | undefined {
  const given = env["PAYMENTS_TEST_MODE"];
  if (given !== undefined && given !== "") return given;
  return isLoopbackHost(host) ? "true" : undefined;
}

export type PaymentProvider = "stripe" | "test" | "none";

/** The provider the hooks choose (lib/money/payments.js provider()): Stripe first, then the test provider. */
export function paymentProvider(env: Env, testMode: string | undefined): PaymentProvider {
  if (env["STRIPE_SECRET_KEY"] && env["STRIPE_WEBHOOK_SECRET"]) return "stripe";
  return testMode === "true" ? "test" : "none";
}

/** The start banner's line about payments. */
export function paymentsBannerLine(provider: PaymentProvider, appUrl: string): string {
  switch (provider) {
    case "stripe":
      return `Payments: Stripe Checkout; Stripe's webhook goes to ${appUrl}/api/v1/payments/stripe/webhook.`;
    case "test":
      return "Payments: the TEST provider (PAYMENTS_TEST_MODE=true): no money moves and credits arrive at once. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take real payments.";
    case "none":
      return "Payments: none, so Buy Credits says buying is not set up yet. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe Checkout, or PAYMENTS_TEST_MODE=true for the test provider (no money moves).";
  }
}
