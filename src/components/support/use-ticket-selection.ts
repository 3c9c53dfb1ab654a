import { useEffect, useRef } from "react";
import { $selectedTicketId, selectTicket } from "@/components/support/conversation-store";

/**
 * The selected ticket of a support page: the one the address names (`?ticket=<id>`, the
 * link staff-reply mails use) opens on mount, none stays selected on unmount, and `open(id)`
 * selects one and takes the reader (and focus) to `heading`, since small screens stack the
 * list above the conversation.
 */
export function useTicketSelection() {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("ticket");
    if (id) selectTicket(id);
    return () => $selectedTicketId.set(null);
  }, []);

  const open = (id: string) => {
    selectTicket(id);
    requestAnimationFrame(() => heading.current?.focus());
  };

  return { heading, open };
}
