// /console/support (admin spec "Support Tickets"): the live inbox and the selected ticket.
import { AdminGate } from "@/components/session/admin-gate";
import { PageHeader } from "@/components/ui/page-header";
import { useTicketSelection } from "@/components/support/use-ticket-selection";
import { TicketInbox } from "@/features/console-support/components/ticket-inbox";
import { TicketPanel } from "@/features/console-support/components/ticket-panel";

export function SupportConsole() {
  return <AdminGate>{() => <Support />}</AdminGate>;
}

function Support() {
  // ?ticket=<id> opens that ticket; opening one takes focus to it (small screens stack the panels).
  const { heading, open } = useTicketSelection();
  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Support Tickets"
        description="Answer customers and keep each ticket's status current. New tickets and messages appear live."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <TicketInbox onSelect={open} />
        <TicketPanel headingRef={heading} />
      </div>
    </div>
  );
}
