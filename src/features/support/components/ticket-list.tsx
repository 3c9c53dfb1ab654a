// Your Tickets: the user's tickets, newest first, live (spec 2.18).
import { useStore } from "@nanostores/react";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { InboxRows } from "@/components/ui/list-state";
import { LoadMore } from "@/components/ui/load-more";
import { STATUS_LABELS, STATUS_TONES, ticketNumber } from "@/components/support/format";
import { PRIORITY_LABELS } from "@/components/support/format";
import { $selectedTicketId } from "@/components/support/conversation-store";
import { TicketButton } from "@/components/support/ticket-button";
import { $tickets, loadMoreTickets, refreshTickets } from "@/features/support/stores";
import { formatDate } from "@/lib/dates";

export function TicketList({ onSelect }: { onSelect: (id: string) => void }) {
  const tickets = useStore($tickets);
  const selected = useStore($selectedTicketId);

  return (
    <section aria-labelledby="tickets-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
      <h2 id="tickets-heading" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
        Your Tickets
      </h2>
      <div aria-live="polite">
        {tickets.error ? <LoadError className="m-4" message={tickets.error} onRetry={() => void refreshTickets()} /> : null}
      </div>
      <InboxRows
        list={tickets}
        loadingLabel="Loading tickets"
        emptyTitle="No tickets yet"
        emptyText="Open a ticket and our team will get back to you."
      >
        <ul className="max-h-[32rem] divide-y divide-slate-100 overflow-y-auto" aria-label="Tickets">
          {tickets.items.map((ticket) => {
            const active = ticket.id === selected;
            return (
              <li key={ticket.id}>
                <TicketButton active={active} onSelect={() => onSelect(ticket.id)} testId="ticket-item">
                  <span className="flex items-start justify-between gap-2">
                    <span className="min-w-0 font-medium break-words text-slate-900">{ticket.subject}</span>
                    <Badge tone={STATUS_TONES[ticket.status]} className="shrink-0">
                      {STATUS_LABELS[ticket.status]}
                    </Badge>
                  </span>
                  <span className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
                    <span className="font-mono">#{ticketNumber(ticket.id)}</span>
                    <span>Priority: {PRIORITY_LABELS[ticket.priority]}</span>
                    <span>{formatDate(ticket.created)}</span>
                  </span>
                </TicketButton>
              </li>
            );
          })}
        </ul>
      </InboxRows>
      <LoadMore shown={tickets.hasMore} pending={tickets.loadingMore} onLoad={() => void loadMoreTickets()}>
        Show older tickets
      </LoadMore>
    </section>
  );
}
