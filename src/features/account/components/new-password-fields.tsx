import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "@/components/ui/password-input";

interface PasswordPair extends FieldValues {
  newPassword: string;
  confirmPassword: string;
}

/** "New password" and its confirmation, shared by the change and set-password forms. */
export function NewPasswordFields<T extends PasswordPair, C, O extends FieldValues>({
  form,
}: {
  form: Pick<UseFormReturn<T, C, O>, "register" | "control">;
}) {
  return (
    <>
      <FormField form={form} name={"newPassword" as Path<T>} label="New password">
        {(field) => <PasswordInput autoComplete="new-password" {...field} />}
      </FormField>
      <FormField form={form} name={"confirmPassword" as Path<T>} label="Confirm new password">
        {(field) => <PasswordInput autoComplete="new-password" {...field} />}
      </FormField>
    </>
  );
}
