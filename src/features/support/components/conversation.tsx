// The conversation panel: the selected ticket's messages, oldest first, live; the newest
// is scrolled into view; the reply box unless the ticket is closed (spec 2.18).
import { useStore } from "@nanostores/react";
import { Lock, MessageSquare } from "lucide-react";
import { useEffect, useRef, type Ref } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Attachments } from "@/features/support/components/attachments";
import { ReplyForm } from "@/features/support/components/reply-form";
import { STATUS_LABELS, STATUS_TONES, senderLabel, ticketNumber } from "@/features/support/format";
import { PRIORITY_LABELS } from "@/features/support/schemas";
import { $conversation, $supportName } from "@/features/support/stores";
import { cn } from "@/lib/cn";
import { formatDate, formatDateTime } from "@/lib/dates";

const frame = "flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white shadow-sm";

export function Conversation({ userId, headingRef }: { userId: string; headingRef: Ref<HTMLHeadingElement> }) {
  const conversation = useStore($conversation);
  const staff = useStore($supportName);
  const log = useRef<HTMLDivElement>(null);
  const { ticket, messages } = conversation;
  const lastId = messages.at(-1)?.id;

  // Keep the newest message in view (a new one live, or the thread just opened).
  useEffect(() => {
    const element = log.current;
    if (element && lastId) element.scrollTop = element.scrollHeight;
  }, [lastId, conversation.ticketId]);

  if (!conversation.ticketId) {
    return (
      <section aria-labelledby="conversation-heading" className={cn(frame, "items-center justify-center px-6 py-16 text-center")}>
        <MessageSquare className="size-10 text-slate-300" aria-hidden="true" />
        <h2
          id="conversation-heading"
          ref={headingRef}
          tabIndex={-1}
          className="mt-3 text-lg font-semibold text-slate-900 focus:outline-none"
        >
          Select a Ticket
        </h2>
        <p className="mt-1 text-sm text-slate-600">Choose a ticket from the list to see the conversation, or open a new one.</p>
      </section>
    );
  }

  const closed = ticket?.status === "closed";

  return (
    <section aria-labelledby="conversation-heading" className={frame} data-testid="conversation">
      <header className="border-b border-slate-200 px-4 py-3">
        <div className="flex items-start justify-between gap-3">
          <h2
            id="conversation-heading"
            ref={headingRef}
            tabIndex={-1}
            className="min-w-0 text-lg font-semibold break-words text-slate-900 focus:outline-none"
          >
            {ticket?.subject ?? (conversation.status === "error" ? "Ticket unavailable" : "Loading ticket...")}
          </h2>
          {ticket ? (
            <Badge tone={STATUS_TONES[ticket.status]} className="shrink-0" data-testid="ticket-status">
              {STATUS_LABELS[ticket.status]}
            </Badge>
          ) : null}
        </div>
        {ticket ? (
          <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-500">
            <span>
              Ticket <span className="font-mono">#{ticketNumber(ticket.id)}</span>
            </span>
            <span>Priority: {PRIORITY_LABELS[ticket.priority]}</span>
            <span>Opened {formatDate(ticket.created)}</span>
          </p>
        ) : null}
      </header>
      <div aria-live="polite">
        {conversation.error ? (
          <Alert tone="error" className="m-4">
            {conversation.error}
          </Alert>
        ) : null}
      </div>
      <div ref={log} role="log" aria-label="Messages" className="max-h-[28rem] min-h-[12rem] flex-1 overflow-y-auto px-4 py-4">
        {conversation.status === "loading" && messages.length === 0 ? (
          <div className="space-y-3" aria-busy="true">
            <span className="sr-only">Loading messages...</span>
            <Skeleton className="h-16 w-3/4" />
            <Skeleton className="ml-auto h-16 w-3/4" />
          </div>
        ) : messages.length === 0 ? (
          <p className="py-10 text-center text-sm text-slate-500">Your conversation will appear here</p>
        ) : (
          <ol className="space-y-4">
            {messages.map((message) => {
              const mine = message.sender_id === userId;
              return (
                <li key={message.id} className={cn("flex", mine ? "justify-end" : "justify-start")} data-testid="chat-message">
                  <div
                    className={cn(
                      "max-w-[85%] min-w-0 rounded-lg px-3 py-2 text-sm",
                      mine ? "bg-primary/10 text-slate-900" : "border border-slate-200 bg-slate-50 text-slate-900",
                    )}
                  >
                    <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
                      <span className="font-semibold text-slate-700" data-testid="chat-sender">
                        {senderLabel(message, userId, staff)}
                      </span>
                      <span className="text-slate-600">{formatDateTime(message.created)}</span>
                    </p>
                    <p className="mt-1 break-words whitespace-pre-wrap">{message.message}</p>
                    <Attachments message={message} />
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </div>
      {ticket && closed ? (
        <p className="flex items-center gap-2 border-t border-slate-200 p-4 text-sm text-slate-600" role="status">
          <Lock className="size-4" aria-hidden="true" />
          This ticket is closed. Open a new ticket if you need more help.
        </p>
      ) : ticket ? (
        <ReplyForm key={ticket.id} />
      ) : null}
    </section>
  );
}
