// How the soak load sends a request: retried with the same Idempotency-Key and body until
// it has an answer, and recorded in the Book with what the client was told.
import type { Kind, Request } from "./book.ts";
import type { Actor, LoadOptions } from "./load.ts";
import { call, NoAnswer, type Answer } from "./soak-client.ts";

/** Statuses that are a definite, expected refusal for each kind (anything else is a problem). */
const REFUSALS: Record<Kind, number[]> = {
  purchase: [400, 403, 409], // insufficient balance, an API key's spend cap (load.ts checks who), not enough stock
  renewal: [400, 403, 404], // insufficient balance, an API key's spend cap, proxy no longer theirs (refunded meanwhile)
  checkout: [],
  webhook: [],
  credit: [],
  debit: [400], // insufficient balance
  refund: [409], // already refunded, renewed later
};

let keySeq = 0;

/** The next number of the run's request keys. */
export function nextSeq(): number {
  return ++keySeq;
}

export function nextKey(options: LoadOptions, actor: Actor): string {
  keySeq += 1;
  return `soak-${options.seed}-${actor.id}-${keySeq}`;
}

/**
 * Sends one request until it has an answer: every try with the same key and body. Records
 * it in the book (inflight first, so a crash check knows it may have happened).
 */
export async function send(
  options: LoadOptions,
  request: Omit<Request, "state" | "tries">,
  path: string,
  token: string | undefined,
  extra: { headers?: Record<string, string>; raw?: string } = {},
): Promise<{ entry: Request; answer?: Answer }> {
  const { gate, book } = options;
  const entry: Request = { ...request, state: "inflight", tries: 0 };
  book.requests.set(entry.key, entry);
  // No answer for 120 s while PocketBase is up is a problem; the time it is down does not count.
  let deadline = Date.now() + 120_000;
  let doubted = false;
  for (;;) {
    if (!gate.isUp) {
      await gate.wait();
      deadline = Date.now() + 120_000;
    }
    entry.tries += 1;
    try {
      const headers = request.kind === "webhook" ? (extra.headers ?? {}) : { "Idempotency-Key": request.key, ...extra.headers };
      const answer = await call(gate.url, "POST", path, { token, body: request.body, headers, ...(extra.raw ? { raw: extra.raw } : {}) });
      entry.status = answer.status;
      if (answer.status >= 200 && answer.status < 300) {
        entry.state = "acked";
        book.acks += 1;
        return { entry, answer };
      }
      const message = answer.body["message"];
      entry.message = typeof message === "string" ? message : JSON.stringify(answer.body);
      entry.state = "refused";
      if (!REFUSALS[request.kind].includes(answer.status)) {
        book.problems.push(`${request.kind} ${request.key} answered ${answer.status}: ${entry.message}`);
      }
      return { entry };
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      if (!doubted) {
        doubted = true;
        book.inDoubt += 1;
      }
      if (Date.now() > deadline) {
        book.problems.push(`${request.kind} ${request.key} got no answer for 120 s: ${err.message}`);
        return { entry };
      }
      // Killed or restarting: wait for the gate (or a moment, if the kill is not noticed yet).
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
