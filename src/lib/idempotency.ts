/**
 * A fresh Idempotency-Key for one attempt at a money route (purchase, renewal, checkout).
 * Make it when the attempt starts and send the same key on every retry of that attempt,
 * so a double click or a network retry buys once.
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
