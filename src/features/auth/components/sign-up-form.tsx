import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useHydrated } from "@/lib/use-hydrated";
import { authErrorMessage } from "@/features/auth/auth-error";
import { CountryCombobox } from "@/features/auth/components/country-combobox";
import { SignUpSchema, type SignUpInput, type SignUpOutput } from "@/features/auth/schemas";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { fieldErrors } from "@/lib/api-error";
import { REF_COOKIE } from "@/lib/cookies";
import { signUp } from "@/stores/auth";

/** The affiliate code remembered from a ?ref= link (cookie set by the middleware), or the URL's own. */
function referralCode(): string {
  const fromUrl = new URLSearchParams(window.location.search).get("ref");
  if (fromUrl) return fromUrl;
  const match = document.cookie.split("; ").find((c) => c.startsWith(`${REF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(REF_COOKIE.length + 1)) : "";
}

const SERVER_FIELDS: Record<string, keyof SignUpInput> = {
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  country: "country",
};

export function SignUpForm() {
  const hydrated = useHydrated();
  const [banner, setBanner] = useState("");
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput, unknown, SignUpOutput>({
    resolver: valibotResolver(SignUpSchema),
    defaultValues: { firstName: "", lastName: "", email: "", country: "" },
  });

  const onSubmit = handleSubmit(async (data) => {
    setBanner("");
    try {
      const ref = referralCode();
      await signUp({
        first_name: data.firstName,
        last_name: data.lastName,
        email: data.email,
        country: data.country,
        ...(ref ? { ref } : {}),
      });
      window.location.replace("/dashboard");
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        const name = SERVER_FIELDS[field];
        if (name) setError(name, { message: message.replace(/\.$/, "") });
      }
      setBanner(authErrorMessage(err));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-describedby={banner ? "signup-error" : undefined}>
      <div aria-live="polite" id="signup-error">
        {banner ? <Alert tone="error">{banner}</Alert> : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="firstName" label="First name" error={errors.firstName?.message}>
          <Input
            id="firstName"
            autoComplete="given-name"
            {...register("firstName")}
            {...fieldAria("firstName", errors.firstName?.message)}
          />
        </Field>
        <Field id="lastName" label="Last name" error={errors.lastName?.message}>
          <Input id="lastName" autoComplete="family-name" {...register("lastName")} {...fieldAria("lastName", errors.lastName?.message)} />
        </Field>
      </div>
      <Field id="email" label="Email address" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" {...register("email")} {...fieldAria("email", errors.email?.message)} />
      </Field>
      <Field id="country" label="Country" error={errors.country?.message}>
        <Controller
          control={control}
          name="country"
          render={({ field }) => (
            <CountryCombobox
              id="country"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              invalid={Boolean(errors.country)}
              describedBy={errors.country ? "country-error" : undefined}
            />
          )}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={!hydrated} pending={isSubmitting} pendingText="Creating Account...">
        Create Account
      </Button>
      <p className="text-center text-xs text-slate-500">
        By creating an account you agree to our{" "}
        <a href="/terms" className="text-primary underline">
          Terms of Service
        </a>{" "}
        and{" "}
        <a href="/privacy" className="text-primary underline">
          Privacy Policy
        </a>
        .
      </p>
    </form>
  );
}
