import { ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { api } from "@/lib/api-client";
import { getIpAllowlist } from "@/lib/api-contract/account";
import { plural } from "@/lib/plural";

/**
 * My Proxies' line about the customer's IP allowlist (the developer API's getIpAllowlist),
 * shown only when one is set; read after the page mounts, so nothing changes while it
 * hydrates. A failed read shows nothing: the allowlist is managed and shown in Settings.
 */
export function IpAllowlistNote() {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    api.call(getIpAllowlist, { signal: controller.signal }).then(
      (list) => setCount(list.entries.length),
      () => undefined,
    );
    return () => controller.abort();
  }, []);
  if (count === 0) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700" data-testid="ip-allowlist-note">
      <ShieldCheck className="size-4 shrink-0 text-green-700" aria-hidden="true" />
      <span>Your proxies answer only connections from {plural(count, "address or range", "addresses or ranges")}.</span>
      <a href="/dashboard/settings#ip-allowlist" className="font-medium text-primary hover:underline">
        Manage in Settings
      </a>
    </p>
  );
}
