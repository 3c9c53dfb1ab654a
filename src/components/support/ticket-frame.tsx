// The panel beside a ticket list (the customer's conversation, the console's ticket): its
// card, what it shows before a ticket is chosen, and the live region of its errors.
import { MessageSquare } from "lucide-react";
import type { Ref } from "react";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/lib/cn";

export const TICKET_FRAME = "flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white shadow-sm";

/** The panel before a ticket is chosen; its heading takes the focus back when one closes. */
export function NoTicketSelected({
  headingId,
  headingRef,
  text,
}: {
  headingId: string;
  headingRef: Ref<HTMLHeadingElement>;
  text: string;
}) {
  return (
    <section aria-labelledby={headingId} className={cn(TICKET_FRAME, "items-center justify-center px-6 py-16 text-center")}>
      <MessageSquare className="size-10 text-slate-300" aria-hidden="true" />
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="mt-3 text-lg font-semibold text-slate-900 focus:outline-none">
        Select a Ticket
      </h2>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </section>
  );
}

/** The panel's errors (empty ones are skipped), announced as they appear. */
export function PanelErrors({ errors }: { errors: readonly string[] }) {
  return (
    <div aria-live="polite">
      {errors.map((error, i) =>
        error ? (
          <Alert key={i} tone="error" className="m-4">
            {error}
          </Alert>
        ) : null,
      )}
    </div>
  );
}
