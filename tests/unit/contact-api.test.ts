// The contact form's one request (src/features/contact/api.ts, no PocketBase SDK): what
// it sends, and what the form shows for every kind of answer.
import { describe, expect, it } from "vitest";
import { CONTACT_MESSAGES_URL, refusal, sendContactMessage } from "@/features/contact/api";
import type { ContactMessageOutput } from "@/features/contact/schemas";
import { OFFLINE_MESSAGE, UNEXPECTED_ERROR } from "@/lib/messages";

const message: ContactMessageOutput = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  subject: "Volume pricing",
  message: "We need 500 residential proxies in Germany next month.",
  type: "billing",
};

/** A fetch that records its calls and answers with `answer`. */
function fakeFetch(answer: () => Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

describe("sendContactMessage", () => {
  it("POSTs the message as JSON to the collection's create route, without cookies", async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { id: "abc" }));
    expect(await sendContactMessage(message, { fetch })).toEqual({ ok: true });
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [{ url: string; init: RequestInit }];
    expect(url).toBe(CONTACT_MESSAGES_URL);
    expect(url).toBe("/api/collections/contact_messages/records");
    expect(init.method).toBe("POST");
    expect(new Headers(init.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(init.body as string)).toEqual(message);
    expect(init.credentials).toBe("omit");
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it("takes any 2xx as sent (PocketBase answers 204 when the sender may not view the row)", async () => {
    const { fetch } = fakeFetch(() => Promise.resolve(new Response(null, { status: 204 })));
    expect(await sendContactMessage(message, { fetch })).toEqual({ ok: true });
  });

  it("shows the rate limiter's own message for a 429", async () => {
    const { fetch } = fakeFetch(() => json(429, { status: 429, message: "Too Many Requests.", data: {} }));
    expect(await sendContactMessage(message, { fetch })).toEqual({ ok: false, message: "Too Many Requests.", fields: {} });
  });

  it("passes PocketBase's field messages on by field name", async () => {
    const { fetch } = fakeFetch(() =>
      json(400, {
        status: 400,
        message: "Failed to create record.",
        data: { email: { code: "validation_is_email", message: "Must be a valid email address." }, type: { code: "x", message: "" } },
      }),
    );
    expect(await sendContactMessage(message, { fetch })).toEqual({
      ok: false,
      message: "Failed to create record.",
      fields: { email: "Must be a valid email address." },
    });
  });

  it("says the server cannot be reached when the request fails or times out", async () => {
    const refused = fakeFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    expect(await sendContactMessage(message, { fetch: refused.fetch })).toEqual({ ok: false, message: OFFLINE_MESSAGE, fields: {} });

    // A server that never answers: the timeout's abort ends the wait.
    const stalled = ((_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(new DOMException("The operation timed out.", "TimeoutError"))),
      )) as unknown as typeof globalThis.fetch;
    expect(await sendContactMessage(message, { fetch: stalled, timeoutMs: 20 })).toEqual({
      ok: false,
      message: OFFLINE_MESSAGE,
      fields: {},
    });
  });

  it("falls back to the generic text for an answer that is not PocketBase's JSON", async () => {
    const { fetch } = fakeFetch(() => Promise.resolve(new Response("<html>Bad gateway</html>", { status: 502 })));
    expect(await sendContactMessage(message, { fetch })).toEqual({ ok: false, message: UNEXPECTED_ERROR, fields: {} });
  });
});

describe("refusal", () => {
  it.each([null, "text", 42, [], {}, { message: "" }, { message: "   " }, { message: 7 }])("%j gives the generic text", (body) => {
    expect(refusal(body)).toEqual({ ok: false, message: UNEXPECTED_ERROR, fields: {} });
  });

  it("ignores malformed field entries", () => {
    expect(
      refusal({ message: "No.", data: { name: null, email: "bad", subject: { message: 3 }, message: { message: "Too short." } } }),
    ).toEqual({
      ok: false,
      message: "No.",
      fields: { message: "Too short." },
    });
  });
});
