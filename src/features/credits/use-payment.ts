import { ClientResponseError } from "pocketbase";
import { useEffect, useState } from "react";
import { loadPayment, subscribePayment } from "@/features/credits/api";
import { paymentView } from "@/features/credits/packages";
import { errorMessage, isAbort } from "@/lib/api-error";
import type { PaymentRecord } from "@/lib/pocketbase-types";
import { followLive } from "@/lib/realtime";

/** How often a pending payment is re-read besides its realtime events (missed events, reconnects). */
export const PAYMENT_POLL_MS = 5000;

export interface PaymentTarget {
  id: string;
  /** Stripe sent the browser back from the checkout's cancel link. */
  canceled: boolean;
  /** The payment as the checkout answered it, when known. */
  payment?: PaymentRecord;
}

export interface FollowedPayment {
  payment: PaymentRecord | null;
  error: string;
}

/**
 * Follows one payment until it settles: realtime events on `payments/<id>` (PocketBase
 * checks the view rule per event, lib/realtime.ts) plus a slow poll, both stopped once it
 * is paid, failed or canceled, or when the target changes.
 */
export function usePayment(target: PaymentTarget | null): FollowedPayment {
  const [state, setState] = useState<{ target: PaymentTarget | null; payment: PaymentRecord | null; error: string }>({
    target: null,
    payment: null,
    error: "",
  });

  useEffect(() => {
    if (!target) return;
    if (target.payment && paymentView(target.payment, target.canceled).settled) return;
    let active = true;
    const controller = new AbortController();

    const apply = (payment: PaymentRecord) => {
      if (!active) return;
      setState({ target, payment, error: "" });
      if (paymentView(payment, target.canceled).settled) stopFollowing();
    };
    const refresh = async () => {
      try {
        apply(await loadPayment(target.id, controller.signal));
      } catch (err) {
        if (!active || isAbort(err)) return;
        const missing = err instanceof ClientResponseError && err.status === 404;
        setState((s) => ({
          target,
          payment: s.target === target ? s.payment : null,
          error: missing ? "We could not find this payment in your account." : errorMessage(err),
        }));
        if (missing) stopFollowing();
      }
    };

    const live = followLive({ what: "payment", subscribe: () => subscribePayment(target.id, apply), reload: refresh });
    const timer = window.setInterval(() => {
      if (!live.stopped) void refresh();
    }, PAYMENT_POLL_MS);
    function stopFollowing() {
      live.stop();
      window.clearInterval(timer);
    }

    return () => {
      active = false;
      controller.abort();
      stopFollowing();
    };
  }, [target]);

  if (!target) return { payment: null, error: "" };
  if (state.target === target) return { payment: state.payment ?? target.payment ?? null, error: state.error };
  return { payment: target.payment ?? null, error: "" };
}
