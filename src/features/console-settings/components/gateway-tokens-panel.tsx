// "Gateway tokens" in System Settings' Proxy gateway section: the tokens gateways on other
// machines follow the shop with (name, created, last used), a new one (shown once) and
// revoking one, which cuts its gateway off at its next call.
import { useStore } from "@nanostores/react";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PagedListState } from "@/components/ui/list-state";
import { formatDateTime } from "@/lib/dates";
import { lazyComponents } from "@/lib/lazy-component";
import { $gatewayTokens, reloadGatewayTokens, type GatewayToken } from "@/features/console-settings/components/gateway-tokens";

const { GatewayTokenDialog, RevokeGatewayTokenDialog } = lazyComponents(
  () => import("@/features/console-settings/components/gateway-token-dialog"),
  ["GatewayTokenDialog", "RevokeGatewayTokenDialog"],
);

const NO_TOKENS = (
  <EmptyState title="No gateway tokens" text="The gateway inside this server needs none; make one for each gateway elsewhere." />
);

/** "Last used 2026-01-02 10:00 from 203.0.113.7", or "Never used". */
function lastUsed(token: GatewayToken): string {
  if (!token.last_seen_at) return "Never used";
  return `Last used ${formatDateTime(token.last_seen_at)}${token.last_address ? ` from ${token.last_address}` : ""}`;
}

/** `readOnly`: demo mode is stored on, so the server refuses every change: nothing is offered. */
export function GatewayTokensPanel({ readOnly }: { readOnly: boolean }) {
  const state = useStore($gatewayTokens);
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<GatewayToken | null>(null);
  const [error, setError] = useState("");

  return (
    <section aria-labelledby="gateway-tokens-title" className="space-y-3 border-t border-slate-200 pt-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-60">
          <h3 id="gateway-tokens-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
            <KeyRound className="size-4" aria-hidden="true" /> Gateway tokens
            {state.status === "ready" ? ` (${state.totalItems})` : ""}
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            More gateways on other machines follow the shop with a token each: it reads the proxies&apos; credentials and writes their
            usage, nothing else. A gateway that cannot reach the shop for 60 s refuses new connections until it can; one whose token is
            revoked cuts every tunnel and stops.
          </p>
        </div>
        <Button variant="secondary" size="sm" disabled={readOnly} onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden="true" /> New gateway token
        </Button>
      </div>
      <LiveAlert tone="error">{error}</LiveAlert>
      <PagedListState list={state} onRetry={reloadGatewayTokens} loadingLabel="Loading gateway tokens" empty={NO_TOKENS} compact>
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Gateway tokens">
          {state.items.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                  <span className="truncate">{token.name}</span>
                  {token.last_seen_at === "" ? null : token.in_contact ? (
                    <Badge tone="success">In contact</Badge>
                  ) : (
                    <Badge tone="warning">Out of contact</Badge>
                  )}
                </p>
                <p className="text-xs text-slate-600">
                  Created {formatDateTime(token.created)} · {lastUsed(token)}
                  {token.last_seen_at !== "" && !token.in_contact
                    ? " · not heard from since: it refuses new connections until it reaches the shop"
                    : ""}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                disabled={readOnly}
                aria-label={`Revoke the gateway token ${token.name}`}
                onClick={() => {
                  setError("");
                  setConfirming(token);
                }}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      </PagedListState>

      {creating ? <GatewayTokenDialog open onClose={() => setCreating(false)} /> : null}

      {confirming ? <RevokeGatewayTokenDialog token={confirming} onClose={() => setConfirming(null)} onError={setError} /> : null}
    </section>
  );
}
