// /console/support (admin spec "Support Tickets"): the live inbox and the selected ticket.
import { useEffect, useRef } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { TicketInbox } from "@/features/console-support/components/ticket-inbox";
import { TicketPanel } from "@/features/console-support/components/ticket-panel";
import { $selectedTicketId, selectTicket } from "@/features/console-support/stores";

export function SupportConsole() {
  return <AdminGate>{() => <Support />}</AdminGate>;
}

function Support() {
  const heading = useRef<HTMLHeadingElement>(null);

  // ?ticket=<id> opens that ticket.
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("ticket");
    if (id) selectTicket(id);
    return () => $selectedTicketId.set(null);
  }, []);

  const open = (id: string) => {
    selectTicket(id);
    // Small screens stack the panels: take the reader (and focus) to the ticket.
    requestAnimationFrame(() => heading.current?.focus());
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Support Tickets</h1>
        <p className="text-sm text-slate-600">
          Answer customers and keep each ticket's status current. New tickets and messages appear live.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <TicketInbox onSelect={open} />
        <TicketPanel headingRef={heading} />
      </div>
    </div>
  );
}
