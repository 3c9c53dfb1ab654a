// Settings → API Access (issue #18): what API keys are for, the base URL and a first request,
// the customer's keys (name, prefix, scopes, dates, last use, spend against its cap, status),
// "Create API key" (the key shown once) and revoking one. The server decides everything
// (/api/v1/api-keys); the dialogs load when first opened.
import { useStore } from "@nanostores/react";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PagedListState } from "@/components/ui/list-state";
import { getAccount } from "@/lib/api-contract/account";
import { requestOf } from "@/lib/api-contract/client";
import { formatDate } from "@/lib/dates";
import { lazyComponents } from "@/lib/lazy-component";
import { expires, lastUsed, spend } from "@/features/account/api-keys/format";
import { $apiKeys, $capping, $revoking, reloadApiKeys } from "@/features/account/api-keys/stores";
import { KEY_COLUMNS, KeyActions, KeyPrefix, KeyScopes, KeyStatus } from "@/features/account/api-keys/components/key-cells";

const { CreateApiKeyDialog, SpendCapDialog, RevokeApiKeyDialog } = lazyComponents(
  () => import("@/features/account/api-keys/components/key-dialogs"),
  ["CreateApiKeyDialog", "SpendCapDialog", "RevokeApiKeyDialog"],
);

const NO_KEYS = <EmptyState icon={KeyRound} title="No API keys yet" text="Create one to use the API from your own programs." />;

/** Where the API answers: this shop's own address (the web server passes /api to PocketBase). */
function baseUrl(): string {
  const account = requestOf(getAccount).path;
  return `${typeof window === "undefined" ? "" : window.location.origin}${account.slice(0, -getAccount.path.length)}`;
}

export function ApiKeysPanel() {
  const state = useStore($apiKeys);
  const revoking = useStore($revoking);
  const capping = useStore($capping);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState("");
  const base = baseUrl();
  const example = `curl ${base}/account \\\n  -H "Authorization: Bearer psk_live_YOUR_KEY"`;

  return (
    <div className="space-y-6">
      <section aria-labelledby="api-access-title" className="space-y-3">
        <h2 id="api-access-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <KeyRound className="size-5" aria-hidden="true" /> API Access
        </h2>
        <p className="max-w-2xl text-sm text-slate-600">
          API keys let your own programs check your balance, buy, list and rotate proxies and watch their usage, without your password. Each
          key has only the scopes you give it, and you can limit where it works from and what it may spend. See the{" "}
          <a href="/docs/api" className="font-medium text-primary underline">
            API reference
          </a>{" "}
          for every route.
        </p>
        <dl className="space-y-2 text-sm">
          <div className="flex flex-wrap items-center gap-x-2">
            <dt className="font-medium text-slate-700">Base URL</dt>
            <dd className="flex min-w-0 items-center gap-1">
              <code className="font-mono text-xs break-all text-slate-900" data-testid="api-base-url">
                {base}
              </code>
              <CopyButton value={base} label="Copy the base URL" />
            </dd>
          </div>
          <div className="space-y-1">
            <dt className="font-medium text-slate-700">Example request</dt>
            <dd className="flex min-w-0 items-start gap-2">
              <pre className="min-w-0 flex-1 overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100">
                {example}
              </pre>
              <CopyButton value={example} label="Copy the example request" className="shrink-0" />
            </dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="api-keys-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="api-keys-title" className="text-base font-semibold text-slate-900">
            Your API keys
          </h3>
          <Button
            size="sm"
            onClick={() => {
              setError("");
              setCreating(true);
            }}
          >
            <Plus className="size-4" aria-hidden="true" /> Create API key
          </Button>
        </div>
        <LiveAlert tone="error">{error}</LiveAlert>
        <PagedListState list={state} onRetry={reloadApiKeys} loadingLabel="Loading your API keys" empty={NO_KEYS} compact>
          {/* Small screens: one card per key. */}
          <ul aria-label="API keys" className="space-y-2 md:hidden">
            {state.items.map((apiKey) => (
              <li
                key={apiKey.id}
                className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
                data-testid="api-key-card"
              >
                <div className="flex items-start justify-between gap-2">
                  <p className="min-w-0 font-medium break-words text-slate-900">{apiKey.name}</p>
                  <KeyStatus apiKey={apiKey} />
                </div>
                <KeyPrefix apiKey={apiKey} />
                <KeyScopes apiKey={apiKey} />
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                  <dt className="text-slate-500">Created</dt>
                  <dd className="text-slate-900">{formatDate(apiKey.created)}</dd>
                  <dt className="text-slate-500">Expires</dt>
                  <dd className="text-slate-900">{expires(apiKey)}</dd>
                  <dt className="text-slate-500">Last used</dt>
                  <dd className="break-words text-slate-900">{lastUsed(apiKey)}</dd>
                  <dt className="text-slate-500">Spend this month</dt>
                  <dd className="text-slate-900">{spend(apiKey)}</dd>
                </dl>
                <KeyActions apiKey={apiKey} />
              </li>
            ))}
          </ul>
          <DataTable
            columns={KEY_COLUMNS}
            data={state.items}
            label="API keys table"
            className="min-w-[56rem]"
            frameClassName="hidden rounded-xl border border-slate-200 bg-white shadow-sm md:block"
            busy={state.status === "loading"}
            rowTestId="api-key-row"
          />
        </PagedListState>
      </section>

      {creating ? <CreateApiKeyDialog onClose={() => setCreating(false)} /> : null}
      {capping ? <SpendCapDialog apiKey={capping} onClose={() => $capping.set(null)} /> : null}
      {revoking ? <RevokeApiKeyDialog apiKey={revoking} onClose={() => $revoking.set(null)} onError={setError} /> : null}
    </div>
  );
}
