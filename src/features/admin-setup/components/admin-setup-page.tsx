// /console/setup?token=...: the first administrator of a shop on a real host, with the
// one-time link `proxy-shop admin create <email>` or the start banner prints. The form is the
// admin-register one's (the shared schema, lib/admin-account-schema.ts, and ui fields); it
// loads once the link checks out.
import { ShieldCheck, ShieldX } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { lazyComponent } from "@/lib/lazy-component";
import { startAuth } from "@/stores/auth";
import { checkSetupToken, type SetupCheck } from "@/features/admin-setup/api";

type LinkState = { status: "checking" } | { status: "valid"; setup: SetupCheck } | { status: "refused"; message: string };

export const NO_TOKEN =
  "This page needs a setup link. On the server, run `proxy-shop admin create <email>` (or `npm run admin:create -- <email>` in a checkout) and open the link it prints within 30 minutes.";

const Checking = (
  <div className="space-y-3" aria-hidden="true">
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-10 w-full" />
  </div>
);

const SetupForm = lazyComponent(() => import("@/features/admin-setup/components/setup-form"), "SetupForm", Checking);

/** The centred card every state of the page is shown in (as /console/register's). */
function RegisterCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

export function AdminSetupPage({ token }: { token: string }) {
  const [link, setLink] = useState<LinkState>(() => (token ? { status: "checking" } : { status: "refused", message: NO_TOKEN }));

  useEffect(() => startAuth(), []);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    checkSetupToken(token, controller.signal).then(
      (setup) => setLink({ status: "valid", setup }),
      (err: unknown) => {
        if (controller.signal.aborted || isAbort(err)) return;
        setLink({ status: "refused", message: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [token]);

  if (link.status === "checking") {
    return (
      <RegisterCard title="Shop Setup">
        <p role="status" className="mb-4 text-sm text-slate-600">
          Checking your setup link...
        </p>
        {Checking}
      </RegisterCard>
    );
  }
  if (link.status === "refused") {
    return (
      <RegisterCard title="Setup link not valid">
        <div role="alert" className="flex gap-3 text-sm text-slate-700">
          <ShieldX className="size-6 shrink-0 text-red-600" aria-hidden="true" />
          <p>{link.message}</p>
        </div>
      </RegisterCard>
    );
  }
  return (
    <RegisterCard title="Create the First Administrator">
      <p className="mb-6 flex gap-2 text-sm text-slate-600">
        <ShieldCheck className="size-5 shrink-0 text-green-700" aria-hidden="true" />
        <span>This shop has no administrator yet. This link works once and expires {formatDateTime(link.setup.expires_at)}.</span>
      </p>
      <SetupForm token={token} email={link.setup.email} onLinkRefused={(message) => setLink({ status: "refused", message })} />
    </RegisterCard>
  );
}
