import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { PasswordInput } from "@/components/ui/password-input";
import { NewPasswordFields } from "@/features/account/components/new-password-fields";
import { ChangePasswordSchema, type ChangePasswordInput } from "@/features/account/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { changePassword } from "@/stores/auth";

/** Change password: the current one is checked by PocketBase (update with oldPassword). */
export function ChangePasswordForm() {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const form = useForm<ChangePasswordInput>({
    resolver: valibotResolver(ChangePasswordSchema),
    // Run every check (the resolver otherwise stops at the first issue, hiding "don\'t match").
    criteriaMode: "all",
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = form;

  // Every attempt starts without the previous outcome, also one the form's own checks stop.
  const onSubmit = handleSubmit(
    async ({ currentPassword, newPassword }) => {
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
    },
    () => setOutcome(null),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-5">
      <div aria-live="polite">{outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}</div>
      <FormField form={form} name="currentPassword" label="Current password">
        {(field) => <PasswordInput autoComplete="current-password" {...field} />}
      </FormField>
      <NewPasswordFields form={form} />
      <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Updating...">
        Update Password
      </Button>
    </form>
  );
}
