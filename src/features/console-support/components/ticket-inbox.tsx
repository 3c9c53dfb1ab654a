// The inbox (left): search, status and priority filters, tickets newest activity (or most
// urgent) first with their priority, live; "Load more".
import { useStore } from "@nanostores/react";
import { Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { LoadMore } from "@/components/ui/load-more";
import { InboxRows } from "@/components/ui/list-state";
import { TicketButton } from "@/components/support/ticket-button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import {
  CONSOLE_STATUS_TONES,
  PRIORITY_OPTIONS,
  PRIORITY_TONES,
  SORT_OPTIONS,
  STATUS_OPTIONS,
  customerName,
} from "@/features/console-support/format";
import { $inbox, $inboxFilters, $selectedTicketId, loadMoreInbox, refreshInbox, setInboxFilters } from "@/features/console-support/stores";
import { PRIORITY_LABELS, STATUS_LABELS } from "@/components/support/format";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import { plural } from "@/lib/plural";
import type { TicketStatus } from "@/lib/pocketbase-types";

const SEARCH_DELAY_MS = 250;

export function TicketInbox({ onSelect }: { onSelect: (id: string) => void }) {
  const id = useId();
  const inbox = useStore($inbox);
  const filters = useStore($inboxFilters);
  const selected = useStore($selectedTicketId);
  const [text, setText] = useState(filters.q);

  // The search runs once typing pauses.
  useEffect(() => {
    const timer = window.setTimeout(() => setInboxFilters({ ...$inboxFilters.get(), q: text.trim() }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const counts = inbox.counts;

  return (
    <section aria-labelledby="inbox-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="space-y-3 border-b border-slate-200 p-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="inbox-heading" className="text-lg font-semibold text-slate-900">
            Tickets
          </h2>
          {counts ? (
            <p className="text-xs text-slate-600" data-testid="awaiting-count">
              {counts.awaiting_reply} awaiting reply
            </p>
          ) : null}
        </div>
        <div className="relative">
          <label htmlFor={`${id}-search`} className="sr-only">
            Search tickets
          </label>
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
          <Input
            id={`${id}-search`}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Search subject, customer or e-mail..."
            className="pl-9"
          />
        </div>
        <div className="grid gap-2 sm:grid-cols-3">
          {(
            [
              ["status", "Status", STATUS_OPTIONS],
              ["priority", "Priority", PRIORITY_OPTIONS],
              ["sort", "Sort", SORT_OPTIONS],
            ] as const
          ).map(([key, label, options]) => (
            <FilterSelect
              key={key}
              id={`${id}-${key}`}
              label={label}
              value={filters[key]}
              options={options}
              count={key === "status" && counts ? (value) => (value ? counts[value as TicketStatus] : counts.all) : null}
              onChange={(value) => setInboxFilters({ ...filters, [key]: value })}
            />
          ))}
        </div>
      </div>
      <div aria-live="polite">
        {inbox.error ? <LoadError className="m-4" message={inbox.error} onRetry={() => void refreshInbox()} /> : null}
        {inbox.status === "ready" ? <p className="sr-only">{plural(inbox.totalItems, "ticket", "tickets")}</p> : null}
      </div>
      <InboxRows
        list={inbox}
        loadingLabel="Loading tickets"
        emptyTitle="No tickets found"
        emptyText={
          filters.q || filters.status || filters.priority
            ? "Try another search, status or priority."
            : "Customers' tickets will appear here."
        }
      >
        <ul className="max-h-[36rem] divide-y divide-slate-100 overflow-y-auto" aria-label="Tickets">
          {inbox.items.map((ticket) => {
            const active = ticket.id === selected;
            const waiting = ticket.awaiting_reply && ticket.status !== "closed";
            return (
              <li key={ticket.id}>
                <TicketButton active={active} onSelect={() => onSelect(ticket.id)} testId="admin-ticket-item">
                  <span className="flex items-start justify-between gap-2">
                    <span className={cn("min-w-0 break-words text-slate-900", waiting ? "font-semibold" : "font-medium")}>
                      {waiting ? (
                        <span className="mr-1.5 inline-block size-2 rounded-full bg-primary align-middle" aria-hidden="true" />
                      ) : null}
                      {ticket.subject}
                      {waiting ? <span className="sr-only"> (awaiting reply)</span> : null}
                    </span>
                    <Badge tone={CONSOLE_STATUS_TONES[ticket.status]} className="shrink-0">
                      {STATUS_LABELS[ticket.status]}
                    </Badge>
                  </span>
                  <span className="mt-1 flex flex-wrap justify-between gap-x-3 gap-y-1 text-xs text-slate-600">
                    <span className="min-w-0 break-all">{customerName(ticket)}</span>
                    <span className="flex items-center gap-2">
                      <Badge tone={PRIORITY_TONES[ticket.priority]} data-testid="inbox-priority">
                        {PRIORITY_LABELS[ticket.priority]}
                      </Badge>
                      {formatDateTime(ticket.created)}
                    </span>
                  </span>
                </TicketButton>
              </li>
            );
          })}
        </ul>
      </InboxRows>
      <LoadMore shown={inbox.hasMore} pending={inbox.loadingMore} onLoad={() => void loadMoreInbox()}>
        Load more tickets
      </LoadMore>
    </section>
  );
}

/** A labelled filter of the inbox (the label for screen readers; the options say what they are), with counts when given. */
function FilterSelect({
  id,
  label,
  value,
  options,
  count = null,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  count?: ((value: string) => number) | null;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
            {count ? ` (${count(option.value)})` : ""}
          </option>
        ))}
      </Select>
    </div>
  );
}
