import { valibotResolver } from "@hookform/resolvers/valibot";
import { Eye, EyeOff, Loader2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { authErrorMessage } from "@/features/auth/auth-error";
import { SignInSchema, type SignInInput, type SignInOutput } from "@/features/auth/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { signInWithPassword } from "@/stores/auth";

export function PasswordSignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const hydrated = useHydrated();
  const [banner, setBanner] = useState("");
  const [showPassword, setShowPassword] = useState(false);
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
        <div className="relative">
          <Input
            id="password"
            type={showPassword ? "text" : "password"}
            autoComplete="current-password"
            className="pr-10"
            {...register("password")}
            {...fieldAria("password", errors.password?.message)}
          />
          <button
            type="button"
            onClick={() => setShowPassword((s) => !s)}
            className="absolute inset-y-0 right-0 flex items-center px-3 text-slate-500 hover:text-slate-700"
            aria-label={showPassword ? "Hide password" : "Show password"}
            aria-pressed={showPassword}
          >
            {showPassword ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          </button>
        </div>
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={!hydrated || isSubmitting}>
        {isSubmitting ? (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Signing in...
          </>
        ) : (
          "Sign in"
        )}
      </Button>
    </form>
  );
}
