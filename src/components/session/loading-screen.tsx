import { Loader2 } from "lucide-react";

/** Shown while a protected page's session is loading (spec 2.1). */
export function LoadingScreen() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-3 text-center" role="status" aria-live="polite">
      <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
      <p className="text-lg font-semibold text-slate-900">Loading Dashboard</p>
      <p className="text-sm text-slate-500">Preparing your workspace...</p>
    </div>
  );
}
