// The support page's calls. PocketBase's rules scope tickets and messages to their owner
// (admins see all, so every query also names the user); the hooks force a new ticket open
// and a message's sender.
import type { UnsubscribeFunc } from "pocketbase";
import type { SupportEvent } from "@/components/support/api";
import { api } from "@/lib/api-client";
import type { ResponseOf } from "@/lib/api-contract/define";
import { createSupportTicket } from "@/lib/api-contract/support";
import { pb, withSignal } from "@/lib/pocketbase";
import type { SupportTicketRecord } from "@/lib/pocketbase-types";
import type { NewTicketOutput } from "@/features/support/schemas";

export const TICKETS_PER_PAGE = 20;

/** One page of the user's tickets, newest first. */
export async function listTickets(userId: string, page: number, signal?: AbortSignal) {
  return pb()
    .collection("support_tickets")
    .getList(page, TICKETS_PER_PAGE, {
      ...withSignal(signal),
      filter: pb().filter("user_id = {:userId}", { userId }),
      sort: "-created,-id",
    });
}

export async function getTicket(id: string, signal?: AbortSignal): Promise<SupportTicketRecord> {
  return pb().collection("support_tickets").getOne(id, withSignal(signal));
}

/** A new ticket and its first message, in one transaction. */
export async function createTicket(input: NewTicketOutput): Promise<ResponseOf<typeof createSupportTicket>> {
  return api.call(createSupportTicket, { body: input });
}

/** Live changes of the user's tickets (custom topic, like subscribeConversation). */
export async function subscribeUserTickets(userId: string, onEvent: (e: SupportEvent) => void): Promise<UnsubscribeFunc> {
  return pb().realtime.subscribe(`support/users/${userId}`, onEvent);
}
