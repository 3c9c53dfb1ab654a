// The mark of a proxy whose upstream the gateway could not reach (issue #16): upstream_failed_at
// is written by the gateway on a failure and cleared on its next success. The error is the
// mark's title and is also written out, so it reads on phones (no hover there).
import { AlertTriangle } from "lucide-react";
import { LocalDateTime } from "@/components/session/local-date-time";
import type { AdminProxy } from "@/features/console-proxies/api";

export function UpstreamFailure({ proxy }: { proxy: Pick<AdminProxy, "upstream_failed_at" | "upstream_error"> }) {
  if (!proxy.upstream_failed_at) return null;
  const error = proxy.upstream_error.trim();
  return (
    <p className="mt-1 text-xs break-words text-red-700" title={error || undefined} data-testid="upstream-failed">
      <AlertTriangle className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
      <span className="font-semibold">Upstream failing</span> since <LocalDateTime value={proxy.upstream_failed_at} />
      {error ? <span className="line-clamp-3">{error}</span> : null}
    </p>
  );
}
