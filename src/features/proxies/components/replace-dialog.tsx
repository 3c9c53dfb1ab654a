// The Replace IP and Refund dialogs of a proxy card (issue #28), loaded on first use: a
// preview of the new exit (type and place, free replacements left; nothing is charged), then
// the swap that keeps the username and password; or, when the exit is down and none is in
// stock, the refund of the days left.
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage, isAbort } from "@/lib/api-error";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { newIdempotencyKey } from "@/lib/idempotency";
import { formatCents } from "@/lib/money";
import { plural } from "@/lib/plural";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { locationLabel } from "@/features/proxies/format";
import { fetchReplacement, refundDown, replaceIp, type ReplacementPreview } from "@/features/proxies/replacement";
import { $notice, refreshProxies } from "@/features/proxies/stores";

interface ActionDialogProps {
  proxy: ProxyRecord;
  onClose: () => void;
  /** The sentence the card shows after it. */
  onDone: (notice: string) => void;
}

/** One attempt at a change: pending while it runs, the server's message when it fails. */
function useAttempt(run: () => Promise<void>) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const go = async () => {
    setPending(true);
    setError("");
    try {
      await run();
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  };
  return { pending, error, setError, go: () => void go() };
}

/** What the preview says, and whether Replace may go ahead. */
function previewText(proxy: ProxyRecord, p: ReplacementPreview): { text: string; ok: boolean } {
  const place = locationLabel(p) || p.country;
  if (!p.in_stock) return { ok: false, text: `No ${PROXY_TYPE_LABELS[p.type]} proxy is in stock in ${place} right now. Try again later.` };
  if (p.counts && p.replacements_left < 1) {
    return {
      ok: false,
      text: `No free replacements left this term (${plural(p.replacements_per_term, "replacement", "replacements")} a term). Renew to start a new term.`,
    };
  }
  const free = p.counts
    ? `${plural(p.replacements_left, "free replacement", "free replacements")} of ${p.replacements_per_term} left this term.`
    : "This one does not count: the current exit is down.";
  return {
    ok: true,
    text: `${proxy.username} gets a new IP: ${PROXY_TYPE_LABELS[p.type]} in ${place}. Username and password stay the same. No charge; ${free}`,
  };
}

export function ReplaceDialog({ proxy, onClose, onDone }: ActionDialogProps) {
  const [preview, setPreview] = useState<ReplacementPreview | null>(null);
  const [key] = useState(newIdempotencyKey);
  const { pending, error, setError, go } = useAttempt(async () => {
    await replaceIp(proxy.id, key);
    refreshProxies();
    onDone(`${proxy.username} has a new IP. Its username and password are unchanged.`);
  });
  useEffect(() => {
    const controller = new AbortController();
    fetchReplacement(proxy.id, controller.signal).then(setPreview, (err: unknown) => {
      if (!isAbort(err)) setError(errorMessage(err));
    });
    return () => controller.abort();
  }, [proxy.id, setError]);
  const shown = preview ? previewText(proxy, preview) : null;

  return (
    <Dialog
      open
      onClose={() => !pending && onClose()}
      title="Replace IP?"
      description="The proxy gets a new exit of the same type and place."
    >
      <div aria-live="polite" className="space-y-3">
        {shown ? (
          <p className="text-sm text-slate-700" data-testid="replacement-preview">
            {shown.text}
          </p>
        ) : error ? null : (
          <p className="text-sm text-slate-600">Checking stock...</p>
        )}
        {error ? <Alert tone="error">{error}</Alert> : null}
      </div>
      <div className="mt-4">
        <DialogActions cancelDisabled={pending} onCancel={onClose}>
          <Button disabled={!shown?.ok} pending={pending} pendingText="Replacing..." onClick={go}>
            Replace IP
          </Button>
        </DialogActions>
      </div>
    </Dialog>
  );
}

export function RefundDialog({ proxy, onClose, onDone }: ActionDialogProps) {
  const [key] = useState(newIdempotencyKey);
  const { pending, error, go } = useAttempt(async () => {
    const res = await refundDown(proxy.id, key);
    // The card goes with the proxy: the page says what happened (after the reload, which clears notices).
    refreshProxies();
    $notice.set({
      tone: "success",
      text: `Refunded ${formatCents(res.refunded_cents)} to your balance for the days left on ${proxy.username}.`,
    });
    onDone("");
  });
  return (
    <Dialog
      open
      onClose={() => !pending && onClose()}
      title="Refund this proxy?"
      description={`The exit of ${proxy.username} stopped working and none is in stock to replace it. The days left come back to your balance and the proxy is no longer yours.`}
    >
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <div className="mt-4">
        <DialogActions cancelDisabled={pending} onCancel={onClose}>
          <Button pending={pending} pendingText="Refunding..." onClick={go}>
            Refund
          </Button>
        </DialogActions>
      </div>
    </Dialog>
  );
}
