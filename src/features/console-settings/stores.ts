// System Settings state: the stored settings (loaded once, replaced by what a save
// answers) and the pending admin invitations. A reload aborts the request it supersedes.
import { atom, onMount } from "nanostores";
import { errorMessage, isAbort } from "@/lib/api-error";
import {
  createInvitation,
  fetchInvitations,
  fetchSettings,
  revokeInvitation,
  saveSettings,
  type ConsoleSettings,
  type CreatedInvitation,
  type PendingInvitation,
} from "@/features/console-settings/api";

export interface SettingsState {
  status: "loading" | "ready" | "error";
  settings: ConsoleSettings | null;
  error: string;
}

export interface InvitationListState {
  status: "loading" | "ready" | "error";
  items: PendingInvitation[];
  totalItems: number;
  error: string;
}

export const $consoleSettings = atom<SettingsState>({ status: "loading", settings: null, error: "" });
export const $invitations = atom<InvitationListState>({ status: "loading", items: [], totalItems: 0, error: "" });

const $settingsReloads = atom(0);
const $invitationReloads = atom(0);

/**
 * Runs `load` now and on every `reloads` change while `store` has listeners, aborting the
 * request a newer one supersedes and when the last listener leaves.
 */
function keepLoaded<T>(
  store: { get(): T; set(value: T): void },
  reloads: { listen(cb: () => void): () => void },
  load: (signal: AbortSignal) => Promise<Partial<T>>,
  loading: Partial<T>,
  failed: (message: string) => Partial<T>,
): () => void {
  let controller: AbortController | null = null;
  const run = () => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    store.set({ ...store.get(), ...loading });
    load(current.signal).then(
      (value) => {
        if (!current.signal.aborted) store.set({ ...store.get(), ...value });
      },
      (err: unknown) => {
        if (current.signal.aborted || isAbort(err)) return;
        store.set({ ...store.get(), ...failed(errorMessage(err)) });
      },
    );
  };
  const off = reloads.listen(run);
  run();
  return () => {
    off();
    controller?.abort();
  };
}

onMount($consoleSettings, () =>
  keepLoaded(
    $consoleSettings,
    $settingsReloads,
    async (signal) => ({ status: "ready" as const, settings: await fetchSettings(signal), error: "" }),
    { status: "loading" as const, error: "" },
    (error) => ({ status: "error" as const, error }),
  ),
);

onMount($invitations, () =>
  keepLoaded(
    $invitations,
    $invitationReloads,
    async (signal) => {
      const page = await fetchInvitations(1, signal);
      return { status: "ready" as const, items: page.items, totalItems: page.totalItems, error: "" };
    },
    { status: "loading" as const, error: "" },
    (error) => ({ status: "error" as const, error }),
  ),
);

export function reloadConsoleSettings(): void {
  $settingsReloads.set($settingsReloads.get() + 1);
}

export function reloadInvitations(): void {
  $invitationReloads.set($invitationReloads.get() + 1);
}

/** Saves the whole form; the stored settings become what the server answers. */
export async function saveConsoleSettings(settings: ConsoleSettings): Promise<ConsoleSettings> {
  const saved = await saveSettings(settings);
  $consoleSettings.set({ status: "ready", settings: saved, error: "" });
  return saved;
}

/** Makes a link (for one e-mail when given) and refreshes the pending list. */
export async function createInvitationLink(email: string): Promise<CreatedInvitation> {
  const made = await createInvitation(email);
  reloadInvitations();
  return made;
}

export async function revokeInvitationLink(id: string): Promise<void> {
  try {
    await revokeInvitation(id);
  } finally {
    reloadInvitations();
  }
}
