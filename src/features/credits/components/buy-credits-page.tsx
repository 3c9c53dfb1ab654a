import { useStore } from "@nanostores/react";
import { FlaskConical, Wallet, Zap } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { Alert, LoadError } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { lazyComponent } from "@/lib/lazy-component";
import { loadPackages, startCheckout, type CreditPackage, type CreditPackages } from "@/features/credits/api";
import { returnedPayment } from "@/features/credits/packages";
import { PackageCard } from "@/features/credits/components/package-card";
import { PaymentStatus } from "@/features/credits/components/payment-status";
import { usePayment, type PaymentTarget } from "@/features/credits/use-payment";
import { errorMessage, isAbort } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { $balance, setBalance } from "@/stores/balance";

/** How long a package's button says "Purchased" after a completed purchase. */
const DONE_MS = 3000;

// Only an account that has not verified its e-mail sees the notice: its code loads then.
const VerifyEmailNotice = lazyComponent(() => import("@/components/session/verify-email-notice"), "VerifyEmailNotice");

/** /dashboard/buy-credits (spec 2.14). */
export function BuyCreditsPage() {
  return <AuthGate>{(user) => <BuyCredits user={user} />}</AuthGate>;
}

type PackagesState = { status: "loading" } | { status: "ready"; data: CreditPackages } | { status: "error"; error: string };

function usePackages() {
  const [state, setState] = useState<PackagesState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    loadPackages(controller.signal)
      .then((data) => setState({ status: "ready", data }))
      .catch((err: unknown) => {
        if (!isAbort(err)) setState({ status: "error", error: errorMessage(err) });
      });
    return () => controller.abort();
  }, [attempt]);
  const retry = () => {
    setState({ status: "loading" });
    setAttempt((n) => n + 1);
  };
  return { state, retry };
}

type Buying = { packageId: string; phase: "busy" | "redirecting" | "done" } | null;

function BuyCredits({ user }: { user: UserRecord }) {
  const balance = useStore($balance);
  const { state, retry } = usePackages();
  const [buying, setBuying] = useState<Buying>(null);
  const [error, setError] = useState("");
  // The payment shown in the status panel: the one Stripe sent us back with, or the last purchase.
  const [target, setTarget] = useState<PaymentTarget | null>(() => returnedPayment(window.location.search));
  const { payment, error: paymentError } = usePayment(target);
  const busy = useRef(false);
  // One Idempotency-Key per attempt at a package, kept for retries until it succeeds.
  const keys = useRef(new Map<string, string>());

  // "Purchased" goes back to "Purchase" after a moment.
  useEffect(() => {
    if (buying?.phase !== "done") return;
    const timer = window.setTimeout(() => setBuying(null), DONE_MS);
    return () => window.clearTimeout(timer);
  }, [buying]);

  // Back from Stripe through the browser's history (page restored from the cache): not busy any more.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      busy.current = false;
      setBuying(null);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);

  const buy = async (pkg: CreditPackage) => {
    if (busy.current || !user.verified) return; // a double click buys once
    busy.current = true;
    setBuying({ packageId: pkg.id, phase: "busy" });
    setError("");
    const key = keys.current.get(pkg.id) ?? newIdempotencyKey();
    keys.current.set(pkg.id, key);
    try {
      const result = await startCheckout(pkg.id, key);
      keys.current.delete(pkg.id);
      if (result.checkout_url) {
        setBuying({ packageId: pkg.id, phase: "redirecting" });
        window.location.assign(result.checkout_url);
        return; // stays busy until the browser leaves
      }
      setBalance(result.balance_cents);
      setTarget({ id: result.payment.id, canceled: false, payment: result.payment });
      setBuying({ packageId: pkg.id, phase: "done" });
      busy.current = false;
    } catch (err) {
      setError(errorMessage(err));
      setBuying(null);
      busy.current = false;
    }
  };

  const dismissPayment = () => {
    setTarget(null);
    const url = new URL(window.location.href);
    for (const name of ["payment", "session_id", "canceled"]) url.searchParams.delete(name);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  };

  const data = state.status === "ready" ? state.data : null;

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Buy Credits</h1>
        <p className="text-sm text-slate-600">Add credits to your balance, then use them to buy proxies.</p>
      </div>

      <section
        aria-label="Balance"
        className="flex flex-wrap items-center justify-between gap-4 rounded-xl bg-primary p-5 text-primary-foreground shadow-sm"
      >
        <div className="flex items-center gap-3">
          <Wallet className="size-8 shrink-0" aria-hidden="true" />
          <div>
            <p className="text-sm font-medium">Current Balance</p>
            <p className="text-3xl font-bold" data-testid="balance" aria-live="polite">
              {balance.status === "ready" ? formatCents(balance.cents) : balance.status === "loading" ? "Loading..." : "Unavailable"}
            </p>
          </div>
        </div>
        <p className="flex items-center gap-2 text-sm font-medium">
          <Zap className="size-4 shrink-0" aria-hidden="true" /> Credits are delivered instantly and never expire.
        </p>
      </section>

      {data?.provider === "test" ? (
        <div
          role="note"
          className="flex items-start gap-2 rounded-md border border-violet-200 bg-violet-50 px-4 py-3 text-sm text-violet-900"
        >
          <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>
            <strong>Test mode:</strong> no real money moves. Purchases complete at once.
          </p>
        </div>
      ) : null}

      {user.verified ? null : <VerifyEmailNotice email={user.email} />}

      <div aria-live="polite" className="space-y-3">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {target ? <PaymentStatus target={target} payment={payment} error={paymentError} onDismiss={dismissPayment} /> : null}
      </div>

      {state.status === "error" ? <LoadError message={`Could not load the credit packages: ${state.error}`} onRetry={retry} /> : null}

      {data?.provider === "none" ? (
        <Alert tone="info">
          {data.not_set_up_message ??
            "Buying credits is not set up on this shop yet, so nothing was charged. Please try again later or contact support."}
        </Alert>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy={state.status === "loading"}>
        {data?.provider === "none"
          ? null
          : state.status === "loading"
            ? [0, 1, 2, 3].map((i) => (
                <Card key={i} className="space-y-3">
                  <Skeleton className="h-6 w-28" />
                  <Skeleton className="h-9 w-20" />
                  <Skeleton className="h-4 w-36" />
                  <Skeleton className="h-10 w-full" />
                </Card>
              ))
            : (data?.packages ?? []).map((pkg) => (
                <PackageCard
                  key={pkg.id}
                  pkg={pkg}
                  phase={buying?.packageId === pkg.id ? buying.phase : null}
                  disabled={!user.verified || (buying !== null && buying.phase !== "done")}
                  onBuy={() => void buy(pkg)}
                />
              ))}
      </div>
      <p className="text-xs text-slate-500" hidden={data?.provider === "none"}>
        {data?.provider === "stripe"
          ? "Payments are processed securely by Stripe; you are sent to its checkout page and back here."
          : "Credits are added to your balance as soon as the payment completes."}{" "}
        Prices in US dollars.
      </p>
    </div>
  );
}
