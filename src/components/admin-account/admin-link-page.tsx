// The page of an admin-account link, /console/register?token= (an invitation) and
// /console/setup?token= (the first administrator): checks the link, then shows the account
// form (lazy, admin-account-form.tsx) or why the link cannot be used. The page passes the
// feature's texts and routes (its texts.ts and api.ts: plain data, island props).
import { ShieldCheck, ShieldX } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import {
  checkAdminLink,
  createAdminAccount,
  isLinkRefusal,
  type AdminLinkCheck,
  type AdminLinkRoutes,
} from "@/components/admin-account/api";
import { errorMessage, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { lazyComponent } from "@/lib/lazy-component";
import { startAuth } from "@/stores/auth";

type LinkState = { status: "checking" } | { status: "valid"; link: AdminLinkCheck } | { status: "refused"; message: string };

/** What a link's page says; titles are the card's heading in each state. */
export interface AdminLinkTexts {
  /** Shown (refused) when the URL has no token. */
  noToken: string;
  checkingTitle: string;
  checkingText: string;
  refusedTitle: string;
  validTitle: string;
  /** The sentence before "This link works once and expires ...". */
  intro: string;
  /** The note under the e-mail field when the link is for one address. */
  lockedNote: string;
  submitLabel: string;
}

const Checking = (
  <div className="space-y-3" aria-hidden="true">
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-10 w-full" />
    <Skeleton className="h-10 w-full" />
  </div>
);

const AdminAccountForm = lazyComponent(() => import("@/components/admin-account/admin-account-form"), "AdminAccountForm", Checking);

/** The centred card every state of the page is shown in (like /signup). */
export function RegisterCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

export function AdminLinkPage({ token, texts, routes }: { token: string; texts: AdminLinkTexts; routes: AdminLinkRoutes }) {
  const [state, setState] = useState<LinkState>(() => (token ? { status: "checking" } : { status: "refused", message: texts.noToken }));

  useEffect(() => startAuth(), []);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    checkAdminLink(routes, token, controller.signal).then(
      (link) => setState({ status: "valid", link }),
      (err: unknown) => {
        if (controller.signal.aborted || isAbort(err)) return;
        setState({ status: "refused", message: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [token, routes]);

  if (state.status === "checking") {
    return (
      <RegisterCard title={texts.checkingTitle}>
        <p role="status" className="mb-4 text-sm text-slate-600">
          {texts.checkingText}
        </p>
        {Checking}
      </RegisterCard>
    );
  }
  if (state.status === "refused") {
    return (
      <RegisterCard title={texts.refusedTitle}>
        <div role="alert" className="flex gap-3 text-sm text-slate-700">
          <ShieldX className="size-6 shrink-0 text-red-600" aria-hidden="true" />
          <p>{state.message}</p>
        </div>
      </RegisterCard>
    );
  }
  return (
    <RegisterCard title={texts.validTitle}>
      <p className="mb-6 flex gap-2 text-sm text-slate-600">
        <ShieldCheck className="size-5 shrink-0 text-green-700" aria-hidden="true" />
        <span>
          {texts.intro} This link works once and expires {formatDateTime(state.link.expires_at)}.
        </span>
      </p>
      <AdminAccountForm
        email={state.link.email}
        lockedNote={texts.lockedNote}
        submitLabel={texts.submitLabel}
        submit={(fields) => createAdminAccount(routes, token, fields)}
        isLinkRefusal={(err) => isLinkRefusal(routes, err)}
        onLinkRefused={(message) => setState({ status: "refused", message })}
      />
    </RegisterCard>
  );
}
