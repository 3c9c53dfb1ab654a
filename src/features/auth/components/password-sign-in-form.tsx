import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { authErrorMessage } from "@/features/auth/auth-error";
import { SignInSchema, type SignInInput, type SignInOutput } from "@/features/auth/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { signInWithPassword } from "@/stores/auth";

export function PasswordSignInForm({ onSignedIn, onForgotPassword }: { onSignedIn: () => void; onForgotPassword: () => void }) {
  const hydrated = useHydrated();
  const [banner, setBanner] = useState("");
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput, unknown, SignInOutput>({
    resolver: valibotResolver(SignInSchema),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setBanner("");
    try {
      await signInWithPassword(email, password);
      onSignedIn();
    } catch (err) {
      setBanner(authErrorMessage(err, "password"));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <div aria-live="polite">{banner ? <Alert tone="error">{banner}</Alert> : null}</div>
      <Field id="email" label="Email address" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" {...register("email")} {...fieldAria("email", errors.email?.message)} />
      </Field>
      <Field id="password" label="Password" error={errors.password?.message}>
        <PasswordInput
          id="password"
          autoComplete="current-password"
          {...register("password")}
          {...fieldAria("password", errors.password?.message)}
        />
      </Field>
      <div className="-mt-3 text-right text-sm">
        <button type="button" className="text-primary hover:underline" onClick={onForgotPassword}>
          Forgot your password?
        </button>
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={!hydrated} pending={isSubmitting} pendingText="Signing in...">
        Sign in
      </Button>
    </form>
  );
}
