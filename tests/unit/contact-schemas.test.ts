import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ContactMessageSchema, contactTypeFrom, type ContactMessageInput } from "@/features/contact/schemas";
import { firstMessages } from "../support/schema-messages.ts";

const valid: ContactMessageInput = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  subject: "Volume pricing",
  message: "We need 500 residential proxies in Germany next month.",
  type: "billing",
};

/** The message per field, as the form shows them. */
const messages = (input: unknown) => firstMessages(ContactMessageSchema, input);

/** The spec's message for each of the four fields when it is wrong. */
const ALL_FOUR_WRONG = {
  name: "Name must be at least 2 characters",
  email: "Invalid email address",
  subject: "Subject must be at least 5 characters",
  message: "Message must be at least 20 characters",
};

describe("ContactMessageSchema", () => {
  it("accepts a complete message and trims it", () => {
    const result = v.safeParse(ContactMessageSchema, { ...valid, name: "  Ada Lovelace  " });
    expect(result.success).toBe(true);
    expect(result.success && result.output.name).toBe("Ada Lovelace");
  });

  it.each(["general", "technical", "billing", "partnership"] as const)("accepts the type %s", (type) => {
    expect(v.safeParse(ContactMessageSchema, { ...valid, type }).success).toBe(true);
  });

  it("gives the spec's exact message for every invalid field", () => {
    expect(messages({ name: "A", email: "not-an-email", subject: "Hey", message: "Too short", type: "general" })).toEqual(ALL_FOUR_WRONG);
  });

  it("treats an empty form as four errors", () => {
    expect(messages({ name: "", email: "", subject: "", message: "", type: "general" })).toEqual(ALL_FOUR_WRONG);
  });

  it("counts characters after trimming", () => {
    expect(messages({ ...valid, name: " A " }).name).toBe("Name must be at least 2 characters");
    expect(messages({ ...valid, message: `   ${"x".repeat(19)}   ` }).message).toBe("Message must be at least 20 characters");
  });

  it("accepts the boundary lengths", () => {
    expect(messages({ ...valid, name: "Al", subject: "Hello", message: "x".repeat(20) })).toEqual({});
  });

  it("mirrors the server's maximum lengths", () => {
    expect(messages({ ...valid, name: "x".repeat(101) }).name).toBe("Name must be at most 100 characters");
    expect(messages({ ...valid, subject: "x".repeat(201) }).subject).toBe("Subject must be at most 200 characters");
    expect(messages({ ...valid, message: "x".repeat(5001) }).message).toBe("Message must be at most 5000 characters");
  });

  it("rejects an unknown type", () => {
    expect(messages({ ...valid, type: "sales" }).type).toBeDefined();
  });
});

describe("contactTypeFrom", () => {
  it("reads a known type and ignores anything else", () => {
    expect(contactTypeFrom("partnership")).toBe("partnership");
    expect(contactTypeFrom("sales")).toBeNull();
    expect(contactTypeFrom(null)).toBeNull();
  });
});
