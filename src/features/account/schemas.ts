// Password forms (spec section 5). The server checks the same rules
// (pb_hooks/lib/accounts.js assertStrongPassword) and the current password on update.
import * as v from "valibot";

export const NewPasswordSchema = v.pipe(
  v.string(),
  v.minLength(8, "Password must be at least 8 characters"),
  v.regex(/[A-Z]/, "Password must contain an uppercase letter"),
  v.regex(/[0-9]/, "Password must contain a number"),
  v.regex(/[^A-Za-z0-9]/, "Password must contain a special character"),
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
