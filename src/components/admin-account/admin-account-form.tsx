// The administrator account form of /console/register (invitation) and /console/setup (the
// first administrator): names, the e-mail (locked when the link is for one address), password
// and its confirmation. Lazy (admin-link-page.tsx loads it once the link checks out); the
// schema is lib/admin-account-schema.ts and the server checks the same rules.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { ClientResponseError } from "pocketbase";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import type { AdminAccountFields } from "@/components/admin-account/api";
import { AdminRegisterSchema, PASSWORD_HINT, type AdminRegisterInput, type AdminRegisterOutput } from "@/lib/admin-account-schema";
import { errorMessage, fieldErrors } from "@/lib/api-error";

const SERVER_FIELDS: Record<string, keyof AdminRegisterInput> = {
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  password: "password",
};

export interface AdminAccountFormProps {
  /** The link's address (the field is then read-only), or null for any. */
  email: string | null;
  /** The note under a locked e-mail field. */
  lockedNote: string;
  submitLabel: string;
  /** Creates the account and signs in; the form then opens the console. */
  submit: (fields: AdminAccountFields) => Promise<void>;
  /** True when the server refused the link itself rather than a field. */
  isLinkRefusal: (err: unknown) => boolean;
  onLinkRefused: (message: string) => void;
}

export function AdminAccountForm({ email, lockedNote, submitLabel, submit, isLinkRefusal, onLinkRefused }: AdminAccountFormProps) {
  const [banner, setBanner] = useState("");
  const form = useForm<AdminRegisterInput, unknown, AdminRegisterOutput>({
    resolver: valibotResolver(AdminRegisterSchema),
    defaultValues: { firstName: "", lastName: "", email: email ?? "", password: "", confirmPassword: "" },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isSubmitSuccessful },
  } = form;

  const onSubmit = handleSubmit(async (data) => {
    setBanner("");
    try {
      await submit({ first_name: data.firstName, last_name: data.lastName, email: data.email, password: data.password });
      window.location.replace("/console");
    } catch (err) {
      if (isLinkRefusal(err)) {
        onLinkRefused(errorMessage(err));
        return;
      }
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        const name = SERVER_FIELDS[field];
        if (name) setError(name, { message: message.replace(/\.$/, "") });
      }
      setBanner(
        err instanceof ClientResponseError && err.status === 429
          ? "Too many attempts. Please wait a minute and try again."
          : errorMessage(err),
      );
      throw err;
    }
  });

  const locked = Boolean(email);
  return (
    <form onSubmit={(event) => void onSubmit(event).catch(() => {})} noValidate className="space-y-5">
      <div aria-live="polite">{banner ? <Alert tone="error">{banner}</Alert> : null}</div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="firstName" label="First name">
          {(field) => <Input autoComplete="given-name" {...field} />}
        </FormField>
        <FormField form={form} name="lastName" label="Last name">
          {(field) => <Input autoComplete="family-name" {...field} />}
        </FormField>
      </div>
      <Field id="email" label="Email address" error={errors.email?.message}>
        <Input
          id="email"
          type="email"
          autoComplete="email"
          readOnly={locked}
          className={locked ? "bg-slate-50" : undefined}
          {...register("email")}
          {...fieldAria("email", errors.email?.message)}
          {...(locked && !errors.email ? { "aria-describedby": "email-locked" } : {})}
        />
        {locked ? (
          <p id="email-locked" className="text-xs text-slate-600">
            {lockedNote}
          </p>
        ) : null}
      </Field>
      <Field id="password" label="Password" error={errors.password?.message}>
        <PasswordInput
          id="password"
          autoComplete="new-password"
          {...register("password")}
          {...fieldAria("password", errors.password?.message)}
          {...(!errors.password ? { "aria-describedby": "password-hint" } : {})}
        />
        <p id="password-hint" className="text-xs text-slate-600">
          {PASSWORD_HINT}
        </p>
      </Field>
      <FormField form={form} name="confirmPassword" label="Confirm password">
        {(field) => <PasswordInput autoComplete="new-password" {...field} />}
      </FormField>
      <Button type="submit" size="lg" className="w-full" pending={isSubmitting || isSubmitSuccessful} pendingText="Creating Account...">
        {submitLabel}
      </Button>
    </form>
  );
}
