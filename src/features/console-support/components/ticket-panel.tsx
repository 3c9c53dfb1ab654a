// The selected ticket (right): subject, customer, priority, status dropdown, the live
// thread (oldest first) and the staff reply box. Staff may still reply to a closed ticket
// (a closing note); the customer can then read but not answer.
import { useStore } from "@nanostores/react";
import { MessageSquare } from "lucide-react";
import { useId, useState, type Ref } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PanelHeading } from "@/components/ui/panel-heading";
import { Select } from "@/components/ui/select";
import { CONSOLE_STATUS_TONES, PRIORITY_TONES, STATUS_OPTIONS, customerName } from "@/features/console-support/format";
import { $ticketView, changeStatus, sendStaffReply } from "@/features/console-support/stores";
import { MessageThread } from "@/components/support/message-thread";
import { ReplyForm } from "@/components/support/reply-form";
import { STATUS_LABELS, ticketNumber } from "@/components/support/format";
import { PRIORITY_LABELS } from "@/components/support/format";
import { $supportName } from "@/components/support/stores";
import { errorMessage } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import type { TicketStatus } from "@/lib/pocketbase-types";

const frame = "flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white shadow-sm";

export function TicketPanel({ headingRef }: { headingRef: Ref<HTMLHeadingElement> }) {
  const id = useId();
  const view = useStore($ticketView);
  const staff = useStore($supportName);
  const [statusError, setStatusError] = useState("");
  const [statusBusy, setStatusBusy] = useState(false);
  const { ticket, messages } = view;

  if (!view.ticketId) {
    return (
      <section aria-labelledby="ticket-heading" className={cn(frame, "items-center justify-center px-6 py-16 text-center")}>
        <MessageSquare className="size-10 text-slate-300" aria-hidden="true" />
        <h2 id="ticket-heading" ref={headingRef} tabIndex={-1} className="mt-3 text-lg font-semibold text-slate-900 focus:outline-none">
          Select a Ticket
        </h2>
        <p className="mt-1 text-sm text-slate-600">Choose a ticket from the list to read the conversation and reply.</p>
      </section>
    );
  }

  const onStatus = async (status: TicketStatus) => {
    setStatusError("");
    setStatusBusy(true);
    try {
      await changeStatus(status);
    } catch (err) {
      setStatusError(errorMessage(err));
    } finally {
      setStatusBusy(false);
    }
  };

  const customer = ticket ? customerName(ticket) : "";

  return (
    <section aria-labelledby="ticket-heading" className={frame} data-testid="admin-ticket">
      <header className="space-y-2 border-b border-slate-200 px-4 py-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <PanelHeading id="ticket-heading" ref={headingRef}>
            {ticket?.subject ?? (view.status === "error" ? "Ticket unavailable" : "Loading ticket...")}
          </PanelHeading>
          {ticket ? (
            <div className="flex shrink-0 items-center gap-2">
              <Badge tone={PRIORITY_TONES[ticket.priority]} data-testid="ticket-priority">
                {PRIORITY_LABELS[ticket.priority]} priority
              </Badge>
              <Badge tone={CONSOLE_STATUS_TONES[ticket.status]} data-testid="ticket-status">
                {STATUS_LABELS[ticket.status]}
              </Badge>
            </div>
          ) : null}
        </div>
        {ticket ? (
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div className="min-w-0 text-sm">
              <p className="font-medium text-slate-900" data-testid="ticket-customer">
                {customer}
              </p>
              {ticket.user_email ? (
                <a href={`mailto:${ticket.user_email}`} className="break-all text-primary underline-offset-2 hover:underline">
                  {ticket.user_email}
                </a>
              ) : null}
              <p className="mt-1 text-xs text-slate-600">
                Ticket <span className="font-mono">#{ticketNumber(ticket.id)}</span> · opened {formatDateTime(ticket.created)}
              </p>
            </div>
            <div className="w-40">
              <label htmlFor={`${id}-status`} className="block text-xs font-medium text-slate-700">
                Ticket status
              </label>
              <Select
                id={`${id}-status`}
                value={ticket.status}
                disabled={statusBusy}
                onChange={(e) => void onStatus(e.target.value as TicketStatus)}
              >
                {STATUS_OPTIONS.filter((o) => o.value).map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </div>
          </div>
        ) : null}
      </header>
      <div aria-live="polite">
        {view.error ? (
          <Alert tone="error" className="m-4">
            {view.error}
          </Alert>
        ) : null}
        {statusError ? (
          <Alert tone="error" className="m-4">
            {statusError}
          </Alert>
        ) : null}
      </div>
      <MessageThread
        threadKey={view.ticketId}
        messages={messages}
        loading={view.status === "loading"}
        skeletonRows={3}
        emptyText="No messages yet. Start the conversation!"
        isMine={(message) => message.is_admin_message}
        senderLabel={(message) => (message.is_admin_message ? staff : customer || "Customer")}
      />
      {ticket ? (
        <ReplyForm
          key={ticket.id}
          onSend={sendStaffReply}
          note={
            ticket.status === "closed" ? (
              <p className="text-xs text-slate-600" role="note">
                This ticket is closed: the customer can read your reply but cannot answer until you set it to Open or Pending.
              </p>
            ) : null
          }
        />
      ) : null}
    </section>
  );
}
