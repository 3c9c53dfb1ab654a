// Password forms (spec section 5). The strength rules live beside the hooks, so the
// server (pb_hooks/lib/accounts/accounts.js assertStrongPassword) checks exactly these; it also
// checks the current password on update.
import * as v from "valibot";
import { countryNames, passwordRules } from "@/lib/shared-data";
import { textSchema } from "@/lib/text-schema";

const RULES = passwordRules.map((rule) => ({ test: new RegExp(rule.pattern), message: rule.message }));

/** Every strength rule the password breaks, each with its own message, in the rules' order. */
export const NewPasswordSchema = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const rule of RULES) if (!rule.test.test(dataset.value)) addIssue({ message: rule.message });
  }),
);

const MISMATCH = "Passwords don't match";

export const ChangePasswordSchema = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.minLength(1, "Current password is required")),
    newPassword: NewPasswordSchema,
    confirmPassword: v.string(),
  }),
  v.forward(
    v.partialCheck([["newPassword"], ["confirmPassword"]], (input) => input.newPassword === input.confirmPassword, MISMATCH),
    ["confirmPassword"],
  ),
);
export type ChangePasswordInput = v.InferInput<typeof ChangePasswordSchema>;

export const SetPasswordSchema = v.pipe(
  v.object({
    newPassword: NewPasswordSchema,
    confirmPassword: v.string(),
  }),
  v.forward(
    v.partialCheck([["newPassword"], ["confirmPassword"]], (input) => input.newPassword === input.confirmPassword, MISMATCH),
    ["confirmPassword"],
  ),
);
export type SetPasswordInput = v.InferInput<typeof SetPasswordSchema>;

// The countries the sign-up form offers (the list beside the hooks, as the sign-up route checks).
const COUNTRY_LIST: readonly string[] = countryNames;

/** Settings → Profile: the customer's own names and country (the users update rule allows only their own record). */
export const ProfileSchema = v.object({
  firstName: textSchema(2, "First name must be at least 2 characters", 100, "First name must be at most 100 characters"),
  lastName: textSchema(2, "Last name must be at least 2 characters", 100, "Last name must be at most 100 characters"),
  country: v.pipe(
    v.string(),
    v.check((value) => COUNTRY_LIST.includes(value), "Please select your country"),
  ),
});
export type ProfileInput = v.InferInput<typeof ProfileSchema>;
export type ProfileOutput = v.InferOutput<typeof ProfileSchema>;
