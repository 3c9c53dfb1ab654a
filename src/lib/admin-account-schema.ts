// The administrator account form, shared by admin registration by invitation
// (features/admin-register) and the first administrator's setup (features/admin-setup).
// The server (pb_hooks/lib/accounts/admin-register.js and admin-setup.js, with
// lib/accounts/passwords.js assertStrongPassword) checks the same rules with the same messages.
import * as v from "valibot";
import { passwordRules } from "@/lib/shared-data";
import { textSchema } from "@/lib/text-schema";

const RULES = passwordRules.map((rule) => ({ test: new RegExp(rule.pattern), message: rule.message }));

export const PASSWORD_HINT = "At least 8 characters, with an uppercase letter, a number and a special character.";

export const AdminRegisterSchema = v.pipe(
  v.object({
    firstName: textSchema(2, "First name must be at least 2 characters", 100, "First name is too long"),
    lastName: textSchema(2, "Last name must be at least 2 characters", 100, "Last name is too long"),
    email: v.pipe(v.string(), v.trim(), v.email("Please enter a valid email address")),
    password: v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const broken = RULES.find((rule) => !rule.test.test(dataset.value));
        if (broken) addIssue({ message: broken.message });
      }),
      v.maxLength(72, "Password must be at most 72 characters"),
    ),
    confirmPassword: v.string(),
  }),
  v.forward(
    v.partialCheck([["password"], ["confirmPassword"]], (input) => input.password === input.confirmPassword, "Passwords don't match"),
    ["confirmPassword"],
  ),
);
export type AdminRegisterInput = v.InferInput<typeof AdminRegisterSchema>;
export type AdminRegisterOutput = v.InferOutput<typeof AdminRegisterSchema>;
