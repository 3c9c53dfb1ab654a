// The first data of an app page, read on the server while the HTML is rendered, so the
// island shows it at once instead of a loading screen followed by its own fetches.
//
// - Reads run with the signed-in user's own token (the `pb_auth` cookie the middleware
//   has just verified with PocketBase), so PocketBase's rules and admin checks apply
//   exactly as for the browser: never a superuser read for a user's page.
// - All reads of a page run in parallel under one short deadline. A read that fails or
//   misses the deadline answers null, and the island loads that part in the browser as it
//   always did; the page itself never fails because of it.
// - The visitor's address goes along (X-Forwarded-For with the web server's secret, which
//   PocketBase believes: config.ts forwardedFor), so rate limits count the visitor, as the
//   browser's own requests would.
import type { AstroGlobal } from "astro";
import PocketBase from "pocketbase";
import type { TypedPocketBase } from "@/lib/pocketbase";
import type { UserRecord } from "@/lib/pocketbase-types";
import { sessionToken, tokenOwner } from "@/lib/server/auth";
import { forwardedFor, pocketbaseUrl } from "@/lib/server/config";

/** How long a page waits for its first data before it renders without it. */
export const FIRST_DATA_TIMEOUT_MS = 800;

/** What a first-data reader gets: the user's own client, the user, the deadline. */
export interface FirstDataContext {
  /** A PocketBase client holding this request's session (never shared between requests). */
  client: TypedPocketBase;
  /** The user the middleware verified for this request. */
  user: UserRecord;
  /** Aborts when the deadline passes; hand it to every request. */
  signal: AbortSignal;
}

export type FirstDataReaders = Record<string, (ctx: FirstDataContext) => Promise<unknown>>;

/** Each reader's answer, or null when it failed, timed out or there was no session. */
export type FirstDataOf<R extends FirstDataReaders> = { [K in keyof R]: Awaited<ReturnType<R[K]>> | null };

/** An island page's props: the user and the first data the server read for it (pages hand over loadFirstData's answer). */
export interface FirstDataProps<R extends FirstDataReaders> {
  /** The user the server verified (the page renders at once), or null. */
  initialUser?: UserRecord | null;
  /** Each reader's answer (null parts load in the browser), or null. */
  initial?: FirstDataOf<R> | null;
}

export interface FirstData<R extends FirstDataReaders> {
  /** The server-verified user (the session gates render with it at once), or null. */
  user: UserRecord | null;
  data: FirstDataOf<R>;
}

export interface FirstDataOptions {
  timeoutMs?: number;
}

type PageContext = Pick<AstroGlobal, "locals" | "request"> & { readonly clientAddress: string };

function clientAddress(astro: PageContext): string | undefined {
  try {
    return astro.clientAddress;
  } catch {
    return undefined;
  }
}

/**
 * A client for this request's session, or null when the cookie's token does not belong to
 * the user the middleware verified (a superuser token, a token that changed meanwhile).
 */
export function sessionClient(cookieHeader: string, user: UserRecord, clientIp?: string): TypedPocketBase | null {
  const client: TypedPocketBase = new PocketBase(pocketbaseUrl());
  client.autoCancellation(false);
  const token = sessionToken(cookieHeader);
  const owner = tokenOwner(token);
  if (!token || owner.id !== user.id || owner.collectionId !== user.collectionId) return null;
  client.authStore.save(token, user);
  if (clientIp) {
    client.beforeSend = (url, options) => {
      options.headers = { ...(options.headers as Record<string, string> | undefined), ...forwardedFor(clientIp) };
      return { url, options };
    };
  }
  return client;
}

/**
 * Runs a page's readers in parallel with the signed-in user's session and one deadline.
 * Use in the page's frontmatter and hand `data` (and `user`) to the island as props.
 */
export async function loadFirstData<R extends FirstDataReaders>(
  astro: PageContext,
  readers: R,
  options: FirstDataOptions = {},
): Promise<FirstData<R>> {
  const names = Object.keys(readers) as Array<keyof R>;
  const none = Object.fromEntries(names.map((name) => [name, null])) as FirstDataOf<R>;
  const user = astro.locals.user ?? null;
  if (!user) return { user: null, data: none };
  const client = sessionClient(astro.request.headers.get("cookie") ?? "", user, clientAddress(astro));
  if (!client) return { user, data: none };

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? FIRST_DATA_TIMEOUT_MS);
  const ctx: FirstDataContext = { client, user, signal: controller.signal };
  try {
    const answers = await Promise.all(
      names.map(async (name) => {
        try {
          return await readers[name]!(ctx);
        } catch (err) {
          // The island loads this part itself; say why it could not be rendered.
          if (!controller.signal.aborted) console.warn(`first data "${String(name)}" unavailable:`, String(err));
          return null;
        }
      }),
    );
    return { user, data: Object.fromEntries(names.map((name, i) => [name, answers[i] ?? null])) as FirstDataOf<R> };
  } finally {
    clearTimeout(timer);
  }
}

/** loadFirstData's answer as an island page's props: `<Page client:load {...await firstDataProps(Astro, readers)} />`. */
export async function firstDataProps<R extends FirstDataReaders>(astro: PageContext, readers: R): Promise<Required<FirstDataProps<R>>> {
  const { user, data } = await loadFirstData(astro, readers);
  return { initialUser: user, initial: data };
}
