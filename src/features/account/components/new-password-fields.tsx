import type { UseFormRegisterReturn } from "react-hook-form";
import { Field, fieldAria } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";

interface NewPasswordFieldsProps {
  newPassword: UseFormRegisterReturn<"newPassword">;
  confirmPassword: UseFormRegisterReturn<"confirmPassword">;
  newPasswordError: string | undefined;
  confirmPasswordError: string | undefined;
}

/** "New password" and its confirmation, shared by the change and set-password forms. */
export function NewPasswordFields({ newPassword, confirmPassword, newPasswordError, confirmPasswordError }: NewPasswordFieldsProps) {
  return (
    <>
      <Field id="newPassword" label="New password" error={newPasswordError}>
        <PasswordInput id="newPassword" autoComplete="new-password" {...newPassword} {...fieldAria("newPassword", newPasswordError)} />
      </Field>
      <Field id="confirmPassword" label="Confirm new password" error={confirmPasswordError}>
        <PasswordInput
          id="confirmPassword"
          autoComplete="new-password"
          {...confirmPassword}
          {...fieldAria("confirmPassword", confirmPasswordError)}
        />
      </Field>
    </>
  );
}
