import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { useSearchParam } from "@/lib/use-search-param";
import { NewPasswordFields } from "@/features/account/components/new-password-fields";
import { SetPasswordSchema, type SetPasswordInput } from "@/features/account/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage } from "@/lib/api-error";
import { setPasswordWithToken } from "@/stores/auth";

/** /reset-password?token=…: sets the password from an e-mailed link. */
export function ResetPasswordForm() {
  const hydrated = useHydrated();
  const token = useSearchParam("token");
  const [done, setDone] = useState(false);
  const [error, setErrorText] = useState("");
  const form = useForm<SetPasswordInput>({
    resolver: valibotResolver(SetPasswordSchema),
    // Run every check (the resolver otherwise stops at the first issue, hiding "don\'t match").
    criteriaMode: "all",
    defaultValues: { newPassword: "", confirmPassword: "" },
  });
  const {
    handleSubmit,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async ({ newPassword }) => {
    setErrorText("");
    try {
      await setPasswordWithToken(token ?? "", newPassword);
      setDone(true);
    } catch (err) {
      setErrorText(errorMessage(err));
    }
  });

  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="mb-6 text-2xl font-bold text-slate-900">Set your password</h1>
        <div aria-live="polite" className="mb-4 empty:hidden">
          {error ? <Alert tone="error">{error}</Alert> : null}
          {token === "" ? (
            <Alert tone="error">This link is incomplete. Request a new one from the sign-in page ("Forgot your password?").</Alert>
          ) : null}
        </div>
        {done ? (
          <div className="space-y-4">
            <Alert tone="success">Your password is set. Sign in with your email address and the new password.</Alert>
            <a href="/login" className="block text-center font-medium text-primary hover:underline">
              Go to sign in
            </a>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <NewPasswordFields form={form} />
            <Button type="submit" className="w-full" disabled={!hydrated || !token} pending={isSubmitting}>
              Set password
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
