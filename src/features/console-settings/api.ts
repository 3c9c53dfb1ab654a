// System Settings calls: the contract's settings and invitation routes
// (@/lib/api-contract/admin/settings), through the typed caller.
import { api } from "@/lib/api-client";
import {
  createInvitation as createInvitationRoute,
  getSettings,
  listInvitations,
  revokeInvitation as revokeInvitationRoute,
  saveSettings as saveSettingsRoute,
} from "@/lib/api-contract/admin/settings";
import type { ResponseOf } from "@/lib/api-contract/define";

/** The settings as GET/PUT /api/admin/settings answer them (PUT takes the same shape). */
export type ConsoleSettings = ResponseOf<typeof getSettings>;
export type CreatedInvitation = ResponseOf<typeof createInvitationRoute>;
export type InvitationPage = ResponseOf<typeof listInvitations>;
export type PendingInvitation = InvitationPage["items"][number];

/** Pending links are capped at 20 by the server, so one page holds them all. */
export const INVITATIONS_PER_PAGE = 20;

export function fetchSettings(signal?: AbortSignal): Promise<ConsoleSettings> {
  return api.call(getSettings, signal ? { signal } : {});
}

export function saveSettings(settings: ConsoleSettings): Promise<ConsoleSettings> {
  return api.call(saveSettingsRoute, { body: { ...settings } });
}

export function fetchInvitations(page: number, signal?: AbortSignal): Promise<InvitationPage> {
  return api.call(listInvitations, { query: { page, perPage: INVITATIONS_PER_PAGE }, ...(signal ? { signal } : {}) });
}

export function createInvitation(email: string): Promise<CreatedInvitation> {
  return api.call(createInvitationRoute, { body: email ? { email } : {} });
}

export function revokeInvitation(id: string) {
  return api.call(revokeInvitationRoute, { params: { id } });
}
