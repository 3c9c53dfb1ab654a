// /dashboard/support (spec 2.18): New Ticket, Your Tickets and the live conversation.
import { Plus } from "lucide-react";
import { Suspense, lazy, useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Conversation } from "@/features/support/components/conversation";
import { TicketList } from "@/features/support/components/ticket-list";
import { useTicketSelection } from "@/components/support/use-ticket-selection";
import { OFFLINE_MESSAGE } from "@/lib/messages";
import type { UserRecord } from "@/lib/pocketbase-types";

// The form (react-hook-form and its resolver) loads when it is first wanted, not with the page.
const loadForm = () => import("@/features/support/components/new-ticket-form");
const NewTicketForm = lazy(() =>
  loadForm().then(
    (m) => ({ default: m.NewTicketForm }),
    () => ({ default: FormUnavailable }),
  ),
);
const preloadForm = () => void loadForm().catch(() => {});

function FormUnavailable() {
  return <Alert tone="error">{OFFLINE_MESSAGE} Reload the page to open a ticket.</Alert>;
}

export function SupportPage() {
  return <AuthGate>{(user) => <Support user={user} />}</AuthGate>;
}

function Support({ user }: { user: UserRecord }) {
  const [formOpen, setFormOpen] = useState(false);
  const { heading, open } = useTicketSelection();

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Support</h1>
          <p className="text-sm text-slate-600">Open a ticket and chat with our team. Replies arrive here and by e-mail.</p>
        </div>
        {!formOpen ? (
          <Button onClick={() => setFormOpen(true)} onPointerEnter={preloadForm} onFocus={preloadForm}>
            <Plus className="size-4" aria-hidden="true" />
            New Ticket
          </Button>
        ) : null}
      </div>
      {formOpen ? (
        <Suspense fallback={<Skeleton className="h-72 w-full rounded-xl" />}>
          <NewTicketForm
            onDone={() => {
              setFormOpen(false);
              requestAnimationFrame(() => heading.current?.focus());
            }}
            onCancel={() => setFormOpen(false)}
          />
        </Suspense>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <TicketList onSelect={open} />
        <Conversation userId={user.id} headingRef={heading} />
      </div>
    </div>
  );
}
