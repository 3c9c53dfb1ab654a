import { ChevronDown, Eye, EyeOff } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { errorMessage } from "@/lib/api-error";
import { TERM_TEXT } from "@/lib/catalog";
import { cn } from "@/lib/cn";
import { lazyComponent } from "@/lib/lazy-component";
import type { ProxyRecord } from "@/lib/pocketbase-types";
import { useHydrated } from "@/lib/use-hydrated";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { expiryText, isRenewable, locationLabel, STATUS_BADGES } from "@/features/proxies/format";
import { openRenewal } from "@/features/proxies/renewal-store";
import { regenerate, setAutoRenew, toggleSelected } from "@/features/proxies/stores";
import { endpoint } from "@/lib/endpoint";
import { proxyTitle } from "@/lib/proxy-title";
import { connectionLines, PASSWORD_MASK, portsLabel } from "@/lib/connection-lines";
import { MonthUsageLine } from "@/features/proxies/components/month-usage";

const MASK = PASSWORD_MASK;

// Headless UI's dialog loads on the first confirmation, not with the page.
const RegenerateDialog = lazyComponent(() => import("@/features/proxies/components/regenerate-dialog"), "RegenerateDialog");

/** One proxy: where it is, until when, its credentials, and what can be done with it. */
export function ProxyCard({ proxy, selected }: { proxy: ProxyRecord; selected: boolean }) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");
  const [autoPending, setAutoPending] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [regenPending, setRegenPending] = useState(false);
  const [regenError, setRegenError] = useState("");
  // The server renders the first page of cards: UTC dates until hydrated (lib/dates.ts).
  const hydrated = useHydrated();

  const address = endpoint(proxy);
  const title = proxyTitle(proxy);
  const status = STATUS_BADGES[proxy.status];
  const renewable = isRenewable(proxy);
  const active = proxy.status === "ASSIGNED";

  const toggleAutoRenew = async () => {
    setAutoPending(true);
    setError("");
    setNotice("");
    const enable = !proxy.auto_renew;
    try {
      await setAutoRenew(proxy, enable);
      setNotice(`Auto-renew ${enable ? "on" : "off"} for ${address}.`);
    } catch (err) {
      setError(`Auto-renew could not be turned ${enable ? "on" : "off"} for ${address}: ${errorMessage(err)}`);
    } finally {
      setAutoPending(false);
    }
  };

  const confirmRegenerate = async () => {
    setRegenPending(true);
    setRegenError("");
    try {
      await regenerate(proxy);
      setConfirming(false);
      setRevealed(true);
      setError("");
      setNotice("New credentials issued: the new password is shown below. Update every tool that uses this proxy.");
    } catch (err) {
      setRegenError(errorMessage(err));
    } finally {
      setRegenPending(false);
    }
  };

  return (
    <Card className={cn("flex min-w-0 flex-col gap-4", selected && "ring-2 ring-primary")}>
      <article aria-labelledby={`${id}-title`} className="flex min-w-0 flex-col gap-4" data-testid="proxy-card">
        <div className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-primary"
            checked={selected}
            disabled={!renewable}
            onChange={(e) => toggleSelected(proxy, e.target.checked)}
            aria-label={`Select ${title}`}
          />
          <div className="min-w-0 flex-1">
            <h2 id={`${id}-title`} className="text-sm font-semibold break-words text-slate-900">
              {title}
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">
              {PROXY_TYPE_LABELS[proxy.type]}
              {locationLabel(proxy) ? ` · ${locationLabel(proxy)}` : ""}
            </p>
          </div>
          <Badge tone={status.tone} className="shrink-0">
            {status.label}
          </Badge>
        </div>

        <p className="text-sm text-slate-700">{expiryText(proxy, new Date(), !hydrated) || "No expiry date"}</p>
        {active ? <MonthUsageLine proxyId={proxy.id} /> : null}

        <dl className="space-y-2 rounded-md bg-slate-50 p-3 text-sm">
          <CredentialRow label="Host:port" value={address} copyLabel="Copy host and port" />
          <div>
            <dt className="text-xs font-medium text-slate-500">Gateway ports</dt>
            <dd className="mt-0.5 font-mono text-slate-900" data-testid="proxy-ports">
              {portsLabel(proxy)}
            </dd>
          </div>
          <CredentialRow label="Username" value={proxy.username} copyLabel="Copy username" />
          <div>
            <dt className="text-xs font-medium text-slate-500">Password</dt>
            <dd className="mt-0.5 flex items-center gap-1">
              <code className="min-w-0 flex-1 font-mono break-all text-slate-900" data-testid="proxy-password">
                {revealed ? (
                  proxy.password
                ) : (
                  <>
                    <span aria-hidden="true">{MASK}</span>
                    <span className="sr-only">Hidden</span>
                  </>
                )}
              </code>
              <button
                type="button"
                onClick={() => setRevealed((r) => !r)}
                aria-pressed={revealed}
                aria-label={revealed ? "Hide password" : "Show password"}
                className="rounded-md p-1 text-slate-600 hover:bg-slate-100"
              >
                {revealed ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
              </button>
              <CopyButton value={proxy.password} label="Copy password" />
            </dd>
          </div>
        </dl>

        <ConnectLines proxy={proxy} revealed={revealed} />

        <div className="flex items-center justify-between gap-3">
          <div>
            <span id={`${id}-auto`} className="text-sm font-medium text-slate-900">
              Auto-renew
            </span>
            <p id={`${id}-auto-help`} className="text-xs text-slate-500">
              Renews for {TERM_TEXT} at expiry when your balance covers it.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={proxy.auto_renew}
            aria-labelledby={`${id}-auto`}
            aria-describedby={`${id}-auto-help`}
            disabled={autoPending || !renewable}
            onClick={() => void toggleAutoRenew()}
            className={cn(
              "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60",
              proxy.auto_renew ? "bg-primary" : "bg-slate-300",
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                "inline-block size-5 rounded-full bg-white shadow transition-transform",
                proxy.auto_renew ? "translate-x-5.5" : "translate-x-0.5",
              )}
            />
          </button>
        </div>

        <div aria-live="polite" className="empty:hidden">
          {error ? <Alert tone="error">{error}</Alert> : null}
          {notice ? <Alert tone="success">{notice}</Alert> : null}
        </div>

        <div className="mt-auto flex flex-wrap gap-2">
          <Button size="sm" disabled={!renewable} onClick={() => openRenewal([proxy])}>
            Renew
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!active}
            onClick={() => {
              setRegenError("");
              setConfirming(true);
            }}
          >
            Regenerate credentials
          </Button>
        </div>
        {!active && renewable ? <p className="text-xs text-slate-500">Renew this proxy to use it again.</p> : null}
      </article>

      {confirming ? (
        <RegenerateDialog
          address={address}
          pending={regenPending}
          error={regenError}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void confirmRegenerate()}
        />
      ) : null}
    </Card>
  );
}

function CredentialRow({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div>
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-0.5 flex items-center gap-1">
        <code className="min-w-0 flex-1 font-mono break-all text-slate-900">{value}</code>
        <CopyButton value={value} label={copyLabel} />
      </dd>
    </div>
  );
}

/**
 * "Connect": the lines to paste into a tool (host:port:user:pass, the proxy URLs, a curl
 * command against the shop's IP-echo endpoint), behind a disclosure so the card stays
 * compact; the password masked on screen like the card's until revealed, whole in every
 * copy. Opened only in the browser, so the shop's address is the page's own.
 */
function ConnectLines({ proxy, revealed }: { proxy: ProxyRecord; revealed: boolean }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const lines = open ? connectionLines(proxy, window.location.origin) : [];
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-lines`}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-primary hover:underline"
      >
        <ChevronDown className={cn("size-4 transition-transform", open && "rotate-180")} aria-hidden="true" />
        Connect
      </button>
      <div id={`${id}-lines`} hidden={!open}>
        {open ? (
          <div className="mt-2 space-y-2 rounded-md bg-slate-50 p-3 text-sm" data-testid="connect-lines">
            <dl className="space-y-2">
              {lines.map((line) => (
                <div key={line.key}>
                  <dt className="text-xs font-medium text-slate-500">{line.label}</dt>
                  <dd className="mt-0.5 flex items-start gap-1">
                    <code className="min-w-0 flex-1 font-mono text-xs break-all text-slate-900">{revealed ? line.value : line.masked}</code>
                    <CopyButton value={line.value} label={`Copy ${line.label}`} />
                  </dd>
                </div>
              ))}
            </dl>
            <p className="text-xs text-slate-500">The curl command prints the address websites see through this proxy.</p>
          </div>
        ) : null}
      </div>
    </div>
  );
}
