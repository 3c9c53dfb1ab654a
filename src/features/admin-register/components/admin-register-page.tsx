import { valibotResolver } from "@hookform/resolvers/valibot";
import { ShieldCheck, ShieldX } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { ClientResponseError } from "pocketbase";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import { startAuth } from "@/stores/auth";
import { checkInvitation, isLinkRefusal, registerAdmin, type InvitationCheck } from "@/features/admin-register/api";
import { AdminRegisterSchema, PASSWORD_HINT, type AdminRegisterInput, type AdminRegisterOutput } from "@/lib/admin-account-schema";

type LinkState = { status: "checking" } | { status: "valid"; invitation: InvitationCheck } | { status: "refused"; message: string };

const NO_TOKEN =
  "Administrator accounts are created by invitation only. Ask an administrator of this shop for an invitation link and open it here.";

/** The centred card every state of /console/register is shown in (like /signup). */
export function RegisterCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <div className="mt-4">{children}</div>
      </div>
    </div>
  );
}

/** /console/register while registration is open: checks the invitation, then the form. */
export function AdminRegisterPage({ token }: { token: string }) {
  const [link, setLink] = useState<LinkState>(() => (token ? { status: "checking" } : { status: "refused", message: NO_TOKEN }));

  useEffect(() => startAuth(), []);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    checkInvitation(token, controller.signal).then(
      (invitation) => setLink({ status: "valid", invitation }),
      (err: unknown) => {
        if (controller.signal.aborted || isAbort(err)) return;
        setLink({ status: "refused", message: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [token]);

  if (link.status === "checking") {
    return (
      <RegisterCard title="Admin Registration">
        <p role="status" className="text-sm text-slate-600">
          Checking your invitation...
        </p>
        <div className="mt-4 space-y-3" aria-hidden="true">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      </RegisterCard>
    );
  }
  if (link.status === "refused") {
    return (
      <RegisterCard title="Invitation not valid">
        <div role="alert" className="flex gap-3 text-sm text-slate-700">
          <ShieldX className="size-6 shrink-0 text-red-600" aria-hidden="true" />
          <p>{link.message}</p>
        </div>
      </RegisterCard>
    );
  }
  return (
    <RegisterCard title="Create Your Admin Account">
      <p className="mb-6 flex gap-2 text-sm text-slate-600">
        <ShieldCheck className="size-5 shrink-0 text-green-700" aria-hidden="true" />
        <span>
          You were invited to administer this shop. This link works once and expires {formatDateTime(link.invitation.expires_at)}.
        </span>
      </p>
      <RegisterForm token={token} invitation={link.invitation} onLinkRefused={(message) => setLink({ status: "refused", message })} />
    </RegisterCard>
  );
}

const SERVER_FIELDS: Record<string, keyof AdminRegisterInput> = {
  first_name: "firstName",
  last_name: "lastName",
  email: "email",
  password: "password",
};

function RegisterForm({
  token,
  invitation,
  onLinkRefused,
}: {
  token: string;
  invitation: InvitationCheck;
  onLinkRefused: (message: string) => void;
}) {
  const [banner, setBanner] = useState("");
  const form = useForm<AdminRegisterInput, unknown, AdminRegisterOutput>({
    resolver: valibotResolver(AdminRegisterSchema),
    defaultValues: { firstName: "", lastName: "", email: invitation.email ?? "", password: "", confirmPassword: "" },
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
      await registerAdmin({
        token,
        first_name: data.firstName,
        last_name: data.lastName,
        email: data.email,
        password: data.password,
      });
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

  const locked = Boolean(invitation.email);
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
            This invitation is for this address.
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
        Create Admin Account
      </Button>
    </form>
  );
}
