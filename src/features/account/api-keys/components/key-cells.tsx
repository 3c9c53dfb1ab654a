// What a key's row shows, shared by the table (wide screens) and the cards (small ones).
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { ColumnDef } from "@/components/ui/data-table";
import { formatDate } from "@/lib/dates";
import type { ApiKey } from "@/features/account/api-keys/api";
import { expires, keyStatus, lastUsed, spend } from "@/features/account/api-keys/format";
import { $capping, $revoking } from "@/features/account/api-keys/stores";

const STATUS_TONES = { Active: "success", Revoked: "danger", Expired: "warning" } as const;

export function KeyStatus({ apiKey }: { apiKey: ApiKey }) {
  const status = keyStatus(apiKey);
  return (
    <Badge tone={STATUS_TONES[status]} data-testid="api-key-status">
      {status}
    </Badge>
  );
}

export function KeyPrefix({ apiKey }: { apiKey: ApiKey }) {
  return <code className="font-mono text-xs whitespace-nowrap text-slate-700">{apiKey.prefix}…</code>;
}

export function KeyScopes({ apiKey }: { apiKey: ApiKey }) {
  return (
    <span className="flex flex-wrap gap-1">
      {apiKey.scopes.map((scope) => (
        <Badge key={scope} tone="info">
          {scope}
        </Badge>
      ))}
    </span>
  );
}

/** Change the monthly spend cap, on a key that still works. */
export function CapButton({ apiKey }: { apiKey: ApiKey }) {
  if (keyStatus(apiKey) !== "Active") return null;
  return (
    <Button variant="secondary" size="sm" aria-label={`Change spend cap of API key ${apiKey.name}`} onClick={() => $capping.set(apiKey)}>
      Spend cap
    </Button>
  );
}

/** Revoke (asks first), on a key that still works. */
export function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  if (keyStatus(apiKey) !== "Active") return null;
  return (
    <Button variant="secondary" size="sm" aria-label={`Revoke API key ${apiKey.name}`} onClick={() => $revoking.set(apiKey)}>
      Revoke
    </Button>
  );
}

/** What can be done with a key: its spend cap and revoking it. */
export function KeyActions({ apiKey }: { apiKey: ApiKey }) {
  return (
    <span className="inline-flex flex-wrap justify-end gap-2">
      <CapButton apiKey={apiKey} />
      <RevokeButton apiKey={apiKey} />
    </span>
  );
}

/** The table's columns. */
export const KEY_COLUMNS: ColumnDef<ApiKey, unknown>[] = [
  { id: "name", header: "Name", cell: ({ row }) => <span className="font-medium break-words text-slate-900">{row.original.name}</span> },
  { id: "prefix", header: "Key", cell: ({ row }) => <KeyPrefix apiKey={row.original} /> },
  { id: "scopes", header: "Scopes", cell: ({ row }) => <KeyScopes apiKey={row.original} /> },
  { id: "created", header: "Created", cell: ({ row }) => formatDate(row.original.created), meta: { cellClassName: "whitespace-nowrap" } },
  { id: "expires", header: "Expires", cell: ({ row }) => expires(row.original), meta: { cellClassName: "whitespace-nowrap" } },
  { id: "last_used", header: "Last used", cell: ({ row }) => lastUsed(row.original) },
  { id: "spend", header: "Spend this month", cell: ({ row }) => spend(row.original) },
  { id: "status", header: "Status", cell: ({ row }) => <KeyStatus apiKey={row.original} /> },
  {
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    cell: ({ row }) => <KeyActions apiKey={row.original} />,
    meta: { className: "text-right" },
  },
];
