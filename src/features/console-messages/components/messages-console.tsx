// /console/messages: the contact form's inbox (ARCHITECTURE departure 4). Newest first,
// All / Unread, the unread count; opening a message marks it read; "Mark as unread";
// "Reply by e-mail" opens the admin's mail program.
import { useStore } from "@nanostores/react";
import { Mail, MailOpen } from "lucide-react";
import { useRef, useState } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { Alert, LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { PanelHeading } from "@/components/ui/panel-heading";
import { TicketButton } from "@/components/support/ticket-button";
import { Button } from "@/components/ui/button";
import { InboxRows } from "@/components/ui/list-state";
import { Pager } from "@/components/ui/pager";
import { buttonVariants } from "@/components/ui/button";
import type { MessageFilter } from "@/features/console-messages/api";
import { TYPE_LABELS, replyLink } from "@/features/console-messages/format";
import { $messages, $openMessageId, markRead, openMessage, reloadMessages, showMessages } from "@/features/console-messages/stores";
import { errorMessage } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";

export function MessagesConsole() {
  return <AdminGate>{() => <Messages />}</AdminGate>;
}

const FILTERS: { value: MessageFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "unread", label: "Unread" },
];

function Messages() {
  const state = useStore($messages);
  const openId = useStore($openMessageId);
  const [actionError, setActionError] = useState("");
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const open = state.items.find((m) => m.id === openId) ?? null;

  const onOpen = async (id: string) => {
    const message = state.items.find((m) => m.id === id);
    if (!message) return;
    setActionError("");
    requestAnimationFrame(() => heading.current?.focus());
    try {
      await openMessage(message);
    } catch (err) {
      setActionError(errorMessage(err));
    }
  };

  const onToggleRead = async () => {
    if (!open) return;
    setActionError("");
    setBusy(true);
    try {
      await markRead(open, !open.read_at);
    } catch (err) {
      setActionError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const switchTo = (filter: MessageFilter, page = 1) => {
    $openMessageId.set(null);
    void showMessages(filter, page);
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Contact Messages</h1>
        <p className="text-sm text-slate-600">
          Messages sent through the contact form.{" "}
          {state.unread !== null ? (
            <span className="font-medium text-slate-900" data-testid="unread-count">
              {state.unread} unread
            </span>
          ) : null}
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-labelledby="inbox-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
          <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
            <h2 id="inbox-heading" className="text-lg font-semibold text-slate-900">
              Inbox
            </h2>
            <div role="group" aria-label="Show" className="inline-flex rounded-md border border-slate-300 p-0.5">
              {FILTERS.map((f) => (
                <button
                  key={f.value}
                  type="button"
                  aria-pressed={state.filter === f.value}
                  onClick={() => switchTo(f.value)}
                  className={cn(
                    "rounded px-3 py-1 text-sm font-medium focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none",
                    state.filter === f.value ? "bg-primary text-primary-foreground" : "text-slate-700 hover:bg-slate-100",
                  )}
                >
                  {f.label}
                </button>
              ))}
            </div>
          </div>
          <div aria-live="polite">
            {state.status === "error" ? <LoadError className="m-4" message={state.error} onRetry={() => void reloadMessages()} /> : null}
          </div>
          <InboxRows
            list={state}
            loadingLabel="Loading messages"
            emptyTitle={state.filter === "unread" ? "No unread messages" : "No messages yet"}
            emptyText={
              state.filter === "unread" ? "Every message has been read." : "Messages sent through the contact form will appear here."
            }
          >
            <ul className="divide-y divide-slate-100" aria-label="Messages">
              {state.items.map((message) => {
                const unread = !message.read_at;
                const active = message.id === openId;
                return (
                  <li key={message.id}>
                    <TicketButton active={active} onSelect={() => void onOpen(message.id)} testId="contact-item">
                      <span className="flex items-start justify-between gap-2">
                        <span className={cn("min-w-0 break-words text-slate-900", unread ? "font-semibold" : "font-normal")}>
                          {unread ? (
                            <span className="mr-1.5 inline-block size-2 rounded-full bg-primary align-middle" aria-hidden="true" />
                          ) : null}
                          {message.subject}
                          {unread ? <span className="sr-only"> (unread)</span> : null}
                        </span>
                        <Badge className="shrink-0">{TYPE_LABELS[message.type]}</Badge>
                      </span>
                      <span className="mt-1 flex flex-wrap justify-between gap-x-3 gap-y-1 text-xs text-slate-600">
                        <span className="min-w-0 break-all">
                          {message.name} · {message.email}
                        </span>
                        <span>{formatDateTime(message.created)}</span>
                      </span>
                    </TicketButton>
                  </li>
                );
              })}
            </ul>
          </InboxRows>
          {state.status === "ready" && state.totalPages > 1 ? (
            <div className="border-t border-slate-200 p-3">
              <Pager page={state.page} hasNext={state.page < state.totalPages} onPage={(page) => switchTo(state.filter, page)} />
            </div>
          ) : null}
        </section>

        <section aria-labelledby="message-heading" className="min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm">
          <div aria-live="polite">
            {actionError ? (
              <Alert tone="error" className="m-4">
                {actionError}
              </Alert>
            ) : null}
          </div>
          {open ? (
            <article className="space-y-4 p-4" data-testid="contact-message">
              <header className="space-y-2">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <PanelHeading id="message-heading" ref={heading}>
                    {open.subject}
                  </PanelHeading>
                  <Badge tone={open.read_at ? "neutral" : "info"} data-testid="read-state">
                    {open.read_at ? "Read" : "Unread"}
                  </Badge>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">From</dt>
                  <dd className="min-w-0 break-words text-slate-900">
                    {open.name} &lt;<span className="break-all">{open.email}</span>&gt;
                  </dd>
                  <dt className="text-slate-600">Topic</dt>
                  <dd className="text-slate-900">{TYPE_LABELS[open.type]}</dd>
                  <dt className="text-slate-600">Received</dt>
                  <dd className="text-slate-900">{formatDateTime(open.created)}</dd>
                  {open.read_at ? (
                    <>
                      <dt className="text-slate-600">Read</dt>
                      <dd className="text-slate-900">{formatDateTime(open.read_at)}</dd>
                    </>
                  ) : null}
                </dl>
              </header>
              <p className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap text-slate-900">
                {open.message}
              </p>
              <div className="flex flex-wrap gap-2">
                <a href={replyLink(open.email, open.subject)} className={buttonVariants({ size: "sm" })}>
                  <Mail className="size-4" aria-hidden="true" />
                  Reply by e-mail
                </a>
                <Button variant="secondary" size="sm" pending={busy} onClick={() => void onToggleRead()}>
                  <MailOpen className="size-4" aria-hidden="true" />
                  {open.read_at ? "Mark as unread" : "Mark as read"}
                </Button>
              </div>
            </article>
          ) : (
            <div className="flex flex-col items-center justify-center px-6 py-16 text-center">
              <Mail className="size-10 text-slate-300" aria-hidden="true" />
              <h2 id="message-heading" ref={heading} tabIndex={-1} className="mt-3 text-lg font-semibold text-slate-900 focus:outline-none">
                Select a Message
              </h2>
              <p className="mt-1 text-sm text-slate-600">Choose a message from the inbox to read it.</p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
