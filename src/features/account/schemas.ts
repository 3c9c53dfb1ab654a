// Password forms (spec section 5). The strength rules live beside the hooks, so the
// server (pb_hooks/lib/accounts/accounts.js assertStrongPassword) checks exactly these; it also
// checks the current password on update.
import * as v from "valibot";
import passwordRules from "../../../pocketbase/pb_hooks/lib/password-rules.json";

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
