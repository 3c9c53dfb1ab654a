import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { PasswordInput } from "@/components/ui/password-input";
import { NewPasswordFields } from "@/features/account/components/new-password-fields";
import { ChangePasswordSchema, type ChangePasswordInput } from "@/features/account/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { changePassword } from "@/stores/auth";

/** Change password: the current one is checked by PocketBase (update with oldPassword). */
export function ChangePasswordForm() {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordInput>({
    resolver: valibotResolver(ChangePasswordSchema),
    // Run every check (the resolver otherwise stops at the first issue, hiding "don\'t match").
    criteriaMode: "all",
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setOutcome(null);
    try {
      await changePassword(currentPassword, newPassword);
      reset();
      setOutcome({ tone: "success", text: "Password updated successfully" });
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields["oldPassword"]) setError("currentPassword", { message: "The current password is incorrect" });
      // The server's own strength check reports on `password`.
      if (fields["password"]) setError("newPassword", { message: fields["password"] });
      setOutcome({ tone: "error", text: fields["oldPassword"] ? "The current password is incorrect." : errorMessage(err) });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-5">
      <div aria-live="polite">{outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}</div>
      <Field id="currentPassword" label="Current password" error={errors.currentPassword?.message}>
        <PasswordInput
          id="currentPassword"
          autoComplete="current-password"
          {...register("currentPassword")}
          {...fieldAria("currentPassword", errors.currentPassword?.message)}
        />
      </Field>
      <NewPasswordFields
        newPassword={register("newPassword")}
        confirmPassword={register("confirmPassword")}
        newPasswordError={errors.newPassword?.message}
        confirmPasswordError={errors.confirmPassword?.message}
      />
      <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Updating...">
        Update Password
      </Button>
    </form>
  );
}
