import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  ATTACHMENT_COUNT_MESSAGE,
  ATTACHMENT_TYPE_MESSAGE,
  MAX_ATTACHMENT_BYTES,
  ReplySchema,
  addAttachments,
  type FileLike,
} from "@/components/support/schemas";
import { EMPTY_TICKET, NewTicketSchema } from "@/features/support/schemas";
import { firstMessages } from "../support/schema-messages.ts";

const messages = (input: unknown) => firstMessages(NewTicketSchema, input);

describe("NewTicketSchema", () => {
  it("defaults to medium priority", () => {
    expect(EMPTY_TICKET.priority).toBe("medium");
  });

  it("accepts a ticket and trims it", () => {
    const result = v.safeParse(NewTicketSchema, { subject: "  Proxy down  ", message: "  My proxy stopped working.  ", priority: "high" });
    expect(result.success && result.output).toEqual({ subject: "Proxy down", message: "My proxy stopped working.", priority: "high" });
  });

  it.each(["low", "medium", "high", "urgent"])("accepts the priority %s", (priority) => {
    expect(v.safeParse(NewTicketSchema, { subject: "Hello", message: "0123456789", priority }).success).toBe(true);
  });

  it("gives the spec's messages (spaces don't count)", () => {
    expect(messages({ subject: " Help ", message: "  too short ", priority: "medium" })).toEqual({
      subject: "Subject must be at least 5 characters",
      message: "Message must be at least 10 characters",
    });
  });

  it("refuses an unknown priority and over-long text like the server", () => {
    expect(messages({ subject: "x".repeat(201), message: "y".repeat(5001), priority: "critical" })).toEqual({
      subject: "Subject must be at most 200 characters",
      message: "Message must be at most 5000 characters",
      priority: "Please choose a priority",
    });
  });
});

describe("ReplySchema", () => {
  it("refuses a blank reply after trimming", () => {
    expect(v.safeParse(ReplySchema, " \n\t ").success).toBe(false);
    expect(v.safeParse(ReplySchema, "").success).toBe(false);
  });

  it("trims a reply", () => {
    const result = v.safeParse(ReplySchema, "\n  Thanks!\n");
    expect(result.success && result.output).toBe("Thanks!");
  });
});

describe("addAttachments", () => {
  const file = (name: string, type: string, size = 1000): FileLike => ({ name, type, size });

  it("accepts PNG, JPEG, GIF, WebP and PDF", () => {
    const picked = [
      file("a.png", "image/png"),
      file("b.jpg", "image/jpeg"),
      file("c.gif", "image/gif"),
      file("d.webp", "image/webp"),
      file("e.pdf", "application/pdf"),
    ];
    expect(addAttachments([], picked)).toEqual({ files: picked, errors: [] });
  });

  it("refuses other types with a clear message", () => {
    const result = addAttachments([], [file("notes.txt", "text/plain"), file("x.svg", "image/svg+xml"), file("y.zip", "")]);
    expect(result.files).toEqual([]);
    expect(result.errors).toEqual([
      `notes.txt: ${ATTACHMENT_TYPE_MESSAGE}.`,
      `x.svg: ${ATTACHMENT_TYPE_MESSAGE}.`,
      `y.zip: ${ATTACHMENT_TYPE_MESSAGE}.`,
    ]);
  });

  it("takes files of exactly 5 MB and refuses bigger ones", () => {
    const result = addAttachments(
      [],
      [file("ok.png", "image/png", MAX_ATTACHMENT_BYTES), file("big.pdf", "application/pdf", MAX_ATTACHMENT_BYTES + 1)],
    );
    expect(result.files.map((f) => f.name)).toEqual(["ok.png"]);
    expect(result.errors).toEqual(["big.pdf: files can be at most 5 MB."]);
  });

  it("keeps at most 5 files, counting those already chosen", () => {
    const chosen = [1, 2, 3, 4].map((n) => file(`${n}.png`, "image/png"));
    const result = addAttachments(chosen, [file("5.pdf", "application/pdf"), file("6.png", "image/png")]);
    expect(result.files.map((f) => f.name)).toEqual(["1.png", "2.png", "3.png", "4.png", "5.pdf"]);
    expect(result.errors).toEqual([`6.png: ${ATTACHMENT_COUNT_MESSAGE}.`]);
  });
});
