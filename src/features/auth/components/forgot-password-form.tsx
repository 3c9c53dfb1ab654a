import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { authErrorMessage } from "@/features/auth/auth-error";
import { SignInCodeRequestSchema, type SignInCodeRequestInput } from "@/features/auth/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requestPasswordLink } from "@/stores/auth";

/**
 * "Forgot your password?": mails the link to /reset-password. The answer is the same
 * whether or not the address has an account, so nobody can probe for accounts here.
 */
export function ForgotPasswordForm() {
  const hydrated = useHydrated();
  const [banner, setBanner] = useState("");
  const [sentTo, setSentTo] = useState("");
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInCodeRequestInput>({ resolver: valibotResolver(SignInCodeRequestSchema), defaultValues: { email: "" } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setBanner("");
    try {
      const address = email.trim().toLowerCase();
      await requestPasswordLink(address);
      setSentTo(address);
    } catch (err) {
      setBanner(authErrorMessage(err));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="text-sm text-slate-600">Enter your email address and we will email you a link to set a new password.</p>
      <div aria-live="polite">
        {banner ? <Alert tone="error">{banner}</Alert> : null}
        {sentTo && !banner ? (
          <Alert tone="success">
            If an account exists for {sentTo}, we have emailed it a link to set a new password. It is valid for 30 minutes.
          </Alert>
        ) : null}
      </div>
      <Field id="reset-email" label="Email address" error={errors.email?.message}>
        <Input
          id="reset-email"
          type="email"
          autoComplete="email"
          {...register("email")}
          {...fieldAria("reset-email", errors.email?.message)}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={!hydrated} pending={isSubmitting} pendingText="Sending...">
        Email me a reset link
      </Button>
    </form>
  );
}
