// Every message of the sign-in, sign-up and password schemas (spec section 5).
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ChangePasswordSchema, SetPasswordSchema } from "@/features/account/schemas";
import { SignInCodeSchema, SignInSchema, SignUpSchema } from "@/features/auth/schemas";

function messages(schema: v.GenericSchema, input: unknown): Record<string, string[]> {
  const result = v.safeParse(schema, input);
  return result.success ? {} : ((v.flatten(result.issues).nested ?? {}) as Record<string, string[]>);
}

describe("SignInSchema", () => {
  it.each([
    ["an invalid e-mail", { email: "nope", password: "x" }, "email", "Invalid email address"],
    ["an empty e-mail", { email: "", password: "x" }, "email", "Invalid email address"],
    ["an empty password", { email: "a@b.co", password: "" }, "password", "Password is required"],
  ])("rejects %s", (_, input, field, message) => {
    expect(messages(SignInSchema, input)[field]).toContain(message);
  });

  it("accepts a valid pair", () => {
    expect(v.safeParse(SignInSchema, { email: " a@b.co ", password: "x" }).success).toBe(true);
  });
});

describe("SignInCodeSchema", () => {
  it("wants six digits", () => {
    expect(messages(SignInCodeSchema, { code: "12345" })["code"]).toContain("Enter the 6-digit code from the email");
    expect(v.safeParse(SignInCodeSchema, { code: " 123456 " }).success).toBe(true);
  });
});

describe("SignUpSchema", () => {
  const valid = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", country: "United Kingdom" };

  it.each([
    ["email", { ...valid, email: "ada@" }, "Please enter a valid email address"],
    ["firstName", { ...valid, firstName: "A" }, "First name must be at least 2 characters"],
    ["firstName", { ...valid, firstName: "  A  " }, "First name must be at least 2 characters"],
    ["lastName", { ...valid, lastName: "L" }, "Last name must be at least 2 characters"],
    ["country", { ...valid, country: "" }, "Please select your country"],
    ["country", { ...valid, country: "Atlantis" }, "Please select your country"],
  ])("%s: %j", (field, input, message) => {
    expect(messages(SignUpSchema, input)[field]).toContain(message);
  });

  it("reports all four messages for an empty form", () => {
    const all = messages(SignUpSchema, { firstName: "", lastName: "", email: "", country: "" });
    expect(Object.keys(all).sort()).toEqual(["country", "email", "firstName", "lastName"]);
  });

  it("accepts a valid form and trims names", () => {
    const result = v.safeParse(SignUpSchema, { ...valid, firstName: " Ada " });
    expect(result.success && result.output.firstName).toBe("Ada");
  });
});

describe("ChangePasswordSchema", () => {
  const valid = { currentPassword: "old", newPassword: "Secret#123", confirmPassword: "Secret#123" };

  it.each([
    ["currentPassword", { ...valid, currentPassword: "" }, "Current password is required"],
    ["newPassword", { ...valid, newPassword: "Se#1", confirmPassword: "Se#1" }, "Password must be at least 8 characters"],
    ["newPassword", { ...valid, newPassword: "secret#123", confirmPassword: "secret#123" }, "Password must contain an uppercase letter"],
    ["newPassword", { ...valid, newPassword: "Secret#abc", confirmPassword: "Secret#abc" }, "Password must contain a number"],
    ["newPassword", { ...valid, newPassword: "Secret1234", confirmPassword: "Secret1234" }, "Password must contain a special character"],
    ["confirmPassword", { ...valid, confirmPassword: "Secret#124" }, "Passwords don't match"],
  ])("%s: %j", (field, input, message) => {
    expect(messages(ChangePasswordSchema, input)[field]).toContain(message);
  });

  it("still reports a mismatch while another field is invalid", () => {
    expect(messages(ChangePasswordSchema, { ...valid, currentPassword: "", confirmPassword: "x" })["confirmPassword"]).toContain(
      "Passwords don't match",
    );
  });

  it("accepts a valid change", () => {
    expect(v.safeParse(ChangePasswordSchema, valid).success).toBe(true);
  });
});

describe("SetPasswordSchema", () => {
  it("applies the same password rules", () => {
    expect(messages(SetPasswordSchema, { newPassword: "short", confirmPassword: "short" })["newPassword"]).toContain(
      "Password must be at least 8 characters",
    );
    expect(messages(SetPasswordSchema, { newPassword: "Secret#123", confirmPassword: "nope" })["confirmPassword"]).toContain(
      "Passwords don't match",
    );
    expect(v.safeParse(SetPasswordSchema, { newPassword: "Secret#123", confirmPassword: "Secret#123" }).success).toBe(true);
  });
});
