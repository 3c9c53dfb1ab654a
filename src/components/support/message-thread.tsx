// A ticket's messages, oldest first, as a live log: the newest is kept in view. Shared by
// the customer's support page and the console's Support Tickets (only the labels differ).
import { useEffect, useRef } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { Attachments } from "@/components/support/attachments";
import { cn } from "@/lib/cn";
import { formatDateTime } from "@/lib/dates";
import type { ChatMessageRecord } from "@/lib/pocketbase-types";

interface MessageThreadProps {
  /** Changes when another ticket opens (scrolls to its latest message). */
  threadKey: string | null;
  messages: readonly ChatMessageRecord[];
  loading: boolean;
  /** Skeleton rows while the first load runs. */
  skeletonRows?: number;
  emptyText: string;
  /** Messages of the viewer's side show on the right. */
  isMine: (message: ChatMessageRecord) => boolean;
  senderLabel: (message: ChatMessageRecord) => string;
  className?: string;
}

export function MessageThread({
  threadKey,
  messages,
  loading,
  skeletonRows = 2,
  emptyText,
  isMine,
  senderLabel,
  className,
}: MessageThreadProps) {
  const log = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;

  // Keep the newest message in view (a new one live, or the thread just opened).
  useEffect(() => {
    const element = log.current;
    if (element && lastId) element.scrollTop = element.scrollHeight;
  }, [lastId, threadKey]);

  return (
    <div
      ref={log}
      role="log"
      aria-label="Messages"
      tabIndex={0}
      className={cn(
        "max-h-[28rem] min-h-[12rem] flex-1 overflow-y-auto px-4 py-4 focus-visible:ring-2 focus-visible:ring-primary/40 focus-visible:outline-none focus-visible:ring-inset",
        className,
      )}
    >
      {loading && messages.length === 0 ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only">Loading messages...</span>
          {Array.from({ length: skeletonRows }, (_, i) => (
            <Skeleton key={i} className={cn("h-16 w-3/4", i % 2 === 1 && "ml-auto")} />
          ))}
        </div>
      ) : messages.length === 0 ? (
        <p className="py-10 text-center text-sm text-slate-500">{emptyText}</p>
      ) : (
        <ol className="space-y-4">
          {messages.map((message) => {
            const mine = isMine(message);
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
                      {senderLabel(message)}
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
  );
}
