import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { authErrorMessage } from "@/features/auth/auth-error";
import { SignInCodeRequestSchema, SignInCodeSchema, type SignInCodeInput, type SignInCodeRequestInput } from "@/features/auth/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requestSignInCode, signInWithCode } from "@/stores/auth";

/** Sign-in with a one-time code mailed to the address (accounts without a password). */
export function CodeSignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const hydrated = useHydrated();
  const [banner, setBanner] = useState("");
  const [sent, setSent] = useState<{ email: string; otpId: string } | null>(null);

  const emailForm = useForm<SignInCodeRequestInput>({
    resolver: valibotResolver(SignInCodeRequestSchema),
    defaultValues: { email: "" },
  });
  const codeForm = useForm<SignInCodeInput>({
    resolver: valibotResolver(SignInCodeSchema),
    defaultValues: { code: "" },
  });

  const requestCode = emailForm.handleSubmit(async ({ email }) => {
    setBanner("");
    try {
      const otpId = await requestSignInCode(email);
      setSent({ email: email.trim().toLowerCase(), otpId });
    } catch (err) {
      setBanner(authErrorMessage(err));
    }
  });

  const submitCode = codeForm.handleSubmit(async ({ code }) => {
    if (!sent) return;
    setBanner("");
    try {
      await signInWithCode(sent.otpId, code);
      onSignedIn();
    } catch (err) {
      setBanner(authErrorMessage(err, "code"));
    }
  });

  const emailError = emailForm.formState.errors.email?.message;
  const codeError = codeForm.formState.errors.code?.message;

  return (
    <div className="space-y-5">
      <div aria-live="polite">
        {banner ? <Alert tone="error">{banner}</Alert> : null}
        {sent && !banner ? (
          <Alert tone="info">If an account exists for {sent.email}, we have emailed it a 6-digit sign-in code.</Alert>
        ) : null}
      </div>
      {!sent ? (
        <form onSubmit={requestCode} noValidate className="space-y-5">
          <Field id="code-email" label="Email address" error={emailError}>
            <Input
              id="code-email"
              type="email"
              autoComplete="email"
              {...emailForm.register("email")}
              {...fieldAria("code-email", emailError)}
            />
          </Field>
          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={!hydrated}
            pending={emailForm.formState.isSubmitting}
            pendingText="Sending code..."
          >
            Email me a sign-in code
          </Button>
        </form>
      ) : (
        <form onSubmit={submitCode} noValidate className="space-y-5">
          <Field id="code" label="Sign-in code" error={codeError}>
            <Input
              id="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              {...codeForm.register("code")}
              {...fieldAria("code", codeError)}
            />
          </Field>
          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={!hydrated}
            pending={codeForm.formState.isSubmitting}
            pendingText="Signing in..."
          >
            Sign in with code
          </Button>
          <button
            type="button"
            className="w-full text-center text-sm text-primary hover:underline"
            onClick={() => {
              setSent(null);
              setBanner("");
              codeForm.reset();
            }}
          >
            Use a different email or send a new code
          </button>
        </form>
      )}
    </div>
  );
}
