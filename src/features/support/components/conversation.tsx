// The conversation panel: the selected ticket's messages, oldest first, live; the newest
// is scrolled into view; the reply box unless the ticket is closed (spec 2.18).
import { useStore } from "@nanostores/react";
import { Lock, MessageSquare } from "lucide-react";
import type { Ref } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PanelHeading } from "@/components/ui/panel-heading";
import { MessageThread } from "@/components/support/message-thread";
import { LazyReplyForm } from "@/components/support/lazy-reply-form";
import { STATUS_LABELS, STATUS_TONES, senderLabel, ticketNumber } from "@/components/support/format";
import { PRIORITY_LABELS } from "@/components/support/format";
import { $supportName } from "@/components/support/stores";
import { $conversation, sendReply } from "@/features/support/stores";
import { cn } from "@/lib/cn";
import { formatDate } from "@/lib/dates";

const frame = "flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white shadow-sm";

export function Conversation({ userId, headingRef }: { userId: string; headingRef: Ref<HTMLHeadingElement> }) {
  const conversation = useStore($conversation);
  const staff = useStore($supportName);
  const { ticket, messages } = conversation;

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
          <PanelHeading id="conversation-heading" ref={headingRef}>
            {ticket?.subject ?? (conversation.status === "error" ? "Ticket unavailable" : "Loading ticket...")}
          </PanelHeading>
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
      <MessageThread
        threadKey={conversation.ticketId}
        messages={messages}
        loading={conversation.status === "loading"}
        emptyText="Your conversation will appear here"
        isMine={(message) => message.sender_id === userId}
        senderLabel={(message) => senderLabel(message, userId, staff)}
      />
      {ticket && closed ? (
        <p className="flex items-center gap-2 border-t border-slate-200 p-4 text-sm text-slate-600" role="status">
          <Lock className="size-4" aria-hidden="true" />
          This ticket is closed. Open a new ticket if you need more help.
        </p>
      ) : ticket ? (
        <LazyReplyForm key={ticket.id} onSend={sendReply} />
      ) : null}
    </section>
  );
}
