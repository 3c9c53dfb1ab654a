// Live data from PocketBase's realtime API, followed one way everywhere: open the
// subscription, then read (a change written between a read and the subscription would
// otherwise be missed), read again after every reconnect (events sent while offline are
// lost), and on stop drop the subscriptions and whatever still arrives for them.
import type { UnsubscribeFunc } from "pocketbase";
import { pb } from "@/lib/pocketbase";

/** Holds realtime unsubscribers; whatever arrives after stop() is dropped at once. */
export interface Subscriptions {
  readonly stopped: boolean;
  hold(off: UnsubscribeFunc): void;
  stop(): void;
}

export function subscriptions(): Subscriptions {
  let stopped = false;
  const offs: UnsubscribeFunc[] = [];
  return {
    get stopped() {
      return stopped;
    },
    hold(off) {
      if (stopped) void off().catch(() => {});
      else offs.push(off);
    },
    stop() {
      stopped = true;
      for (const off of offs.splice(0)) void off().catch(() => {});
    },
  };
}

/** Runs `onReconnect` whenever the realtime connection comes back after a drop. */
export async function onRealtimeReconnect(onReconnect: () => void): Promise<UnsubscribeFunc> {
  // Already connected: every PB_CONNECT from now on is a reconnect. Otherwise this
  // subscription opens the connection, and its first PB_CONNECT is not one.
  let connected = pb().realtime.isConnected;
  return pb().realtime.subscribe("PB_CONNECT", () => {
    if (connected) onReconnect();
    connected = true;
  });
}

export interface LiveSource {
  /**
   * Opens the subscription and answers its unsubscribe function; null when there is
   * nothing to follow (then nothing is read again either).
   */
  subscribe(): Promise<UnsubscribeFunc | null>;
  /** Reads the data: once subscribed, and again after every reconnect. */
  reload(): unknown;
  /** What is followed, for the console when subscribing fails (it still loads, only not live). */
  what: string;
}

export interface Live {
  /** True once stop() ran: an event handler returns early when it is. */
  readonly stopped: boolean;
  stop: () => void;
}

/** Follows `source` until stop(): subscribe, read, re-read on every reconnect. */
export function followLive(source: LiveSource): Live {
  const subs = subscriptions();
  const reload = () => {
    if (!subs.stopped) void source.reload();
  };
  void (async () => {
    try {
      const off = await source.subscribe();
      if (off === null) return;
      subs.hold(off);
      subs.hold(await onRealtimeReconnect(reload));
    } catch (err) {
      console.error(`Live ${source.what} updates are unavailable`, err);
    }
    reload();
  })();
  return {
    get stopped() {
      return subs.stopped;
    },
    stop: () => subs.stop(),
  };
}
