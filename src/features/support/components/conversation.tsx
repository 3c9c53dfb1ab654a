// The conversation panel: the selected ticket's messages, oldest first, live; the newest
// is scrolled into view; the reply box unless the ticket is closed (spec 2.18).
import { useStore } from "@nanostores/react";
import { Lock } from "lucide-react";
import type { Ref } from "react";
import { Badge } from "@/components/ui/badge";
import { PanelHeading } from "@/components/ui/panel-heading";
import { MessageThread } from "@/components/support/message-thread";
import { LazyReplyForm } from "@/components/support/lazy-reply-form";
import { NoTicketSelected, PanelErrors, TICKET_FRAME } from "@/components/support/ticket-frame";
import { STATUS_LABELS, STATUS_TONES, senderLabel, ticketNumber } from "@/components/support/format";
import { PRIORITY_LABELS } from "@/components/support/format";
import { $supportName } from "@/components/support/stores";
import { $conversation, sendReply } from "@/features/support/stores";
import { formatDate } from "@/lib/dates";

export function Conversation({ userId, headingRef }: { userId: string; headingRef: Ref<HTMLHeadingElement> }) {
  const conversation = useStore($conversation);
  const staff = useStore($supportName);
  const { ticket, messages } = conversation;

  if (!conversation.ticketId) {
    return (
      <NoTicketSelected
        headingId="conversation-heading"
        headingRef={headingRef}
        text="Choose a ticket from the list to see the conversation, or open a new one."
      />
    );
  }

  const closed = ticket?.status === "closed";

  return (
    <section aria-labelledby="conversation-heading" className={TICKET_FRAME} data-testid="conversation">
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
      <PanelErrors errors={[conversation.error]} />
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
