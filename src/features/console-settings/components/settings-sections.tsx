// The four sections of the System Settings form. Each takes the form's register and errors.
import { Globe, LifeBuoy, Mail, Shield } from "lucide-react";
import type { ReactNode } from "react";
import { useFormContext, useFormState, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { Toggle } from "@/features/console-settings/components/toggle";
import { colorInputValue, MAX_WELCOME_DOLLARS, type SettingsFormInput, type SettingsFormOutput } from "@/features/console-settings/schemas";

/** The settings form's register, setValue and errors (the form is the FormProvider above). */
function useSettingsForm() {
  const form = useFormContext<SettingsFormInput, unknown, SettingsFormOutput>();
  const { errors } = useFormState({ control: form.control });
  return { ...form, errors };
}

function Section({ id, title, icon, children }: { id: string; title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card aria-labelledby={id} className="space-y-4">
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        {icon} {title}
      </h2>
      {children}
    </Card>
  );
}

export function SiteSection() {
  const { register, setValue, control, errors } = useSettingsForm();
  const color = useWatch({ control, name: "primary_color" });
  const pickerValue = colorInputValue(color) ?? "#000000";
  return (
    <Section id="site-configuration" title="Site Configuration" icon={<Globe className="size-5" aria-hidden="true" />}>
      <Field id="site_name" label="Site name" error={errors.site_name?.message}>
        <Input id="site_name" {...register("site_name")} {...fieldAria("site_name", errors.site_name?.message)} />
      </Field>
      <Field id="site_description" label="Site description" error={errors.site_description?.message}>
        <Textarea
          id="site_description"
          rows={3}
          {...register("site_description")}
          {...fieldAria("site_description", errors.site_description?.message)}
        />
      </Field>
      <Field id="primary_color" label="Primary color" error={errors.primary_color?.message}>
        <div className="flex items-center gap-3">
          <input
            type="color"
            aria-label="Pick the primary color"
            value={pickerValue}
            onChange={(event) => setValue("primary_color", event.target.value.toUpperCase(), { shouldDirty: true, shouldValidate: true })}
            className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
          />
          <Input
            id="primary_color"
            className="max-w-40 font-mono"
            placeholder="#3B82F6"
            spellCheck={false}
            {...register("primary_color")}
            {...fieldAria("primary_color", errors.primary_color?.message)}
          />
        </div>
      </Field>
      <Field id="logo_url" label="Logo URL (optional)" error={errors.logo_url?.message}>
        <Input
          id="logo_url"
          type="url"
          inputMode="url"
          placeholder="https://cdn.example.com/logo.svg"
          {...register("logo_url")}
          {...fieldAria("logo_url", errors.logo_url?.message)}
        />
      </Field>
      <Field
        id="welcome_credit"
        label="Welcome credit for new customers (USD)"
        error={errors.welcome_credit?.message}
        hint={`Granted once when a new account verifies its email, and promised on the public pages. 0 turns the offer off; at most $${MAX_WELCOME_DOLLARS}.`}
      >
        <Input
          id="welcome_credit"
          inputMode="decimal"
          className="max-w-40"
          {...register("welcome_credit")}
          {...fieldAria("welcome_credit", errors.welcome_credit?.message, { hint: true })}
        />
      </Field>
      <Field
        id="welcome_credit_spendable"
        label="Welcome credit spendable before a first purchase (USD)"
        error={errors.welcome_credit_spendable?.message}
        hint="How much of the welcome credit buys proxies before the customer's first card payment. At or above the welcome credit, all of it; 0 keeps the whole welcome credit until a first payment."
      >
        <Input
          id="welcome_credit_spendable"
          inputMode="decimal"
          className="max-w-40"
          {...register("welcome_credit_spendable")}
          {...fieldAria("welcome_credit_spendable", errors.welcome_credit_spendable?.message, { hint: true })}
        />
      </Field>
      <Field
        id="welcome_credits_per_address_per_day"
        label="Welcome credits per sign-up address a day"
        error={errors.welcome_credits_per_address_per_day?.message}
        hint="Accounts signed up from one network address get the welcome credit this many times a day; the others work normally without it. 0 means no limit."
      >
        <Input
          id="welcome_credits_per_address_per_day"
          inputMode="numeric"
          className="max-w-40"
          {...register("welcome_credits_per_address_per_day")}
          {...fieldAria("welcome_credits_per_address_per_day", errors.welcome_credits_per_address_per_day?.message, { hint: true })}
        />
      </Field>
    </Section>
  );
}

export function ContactSection() {
  const { register, errors } = useSettingsForm();
  return (
    <Section id="contact-information" title="Contact Information" icon={<Mail className="size-5" aria-hidden="true" />}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="contact_email" label="Email" error={errors.contact_email?.message}>
          <Input
            id="contact_email"
            type="email"
            autoComplete="off"
            {...register("contact_email")}
            {...fieldAria("contact_email", errors.contact_email?.message)}
          />
        </Field>
        <Field id="contact_phone" label="Phone number" error={errors.contact_phone?.message}>
          <Input
            id="contact_phone"
            type="tel"
            autoComplete="off"
            {...register("contact_phone")}
            {...fieldAria("contact_phone", errors.contact_phone?.message)}
          />
        </Field>
      </div>
      <Field id="contact_address" label="Address (optional)" error={errors.contact_address?.message}>
        <Textarea
          id="contact_address"
          rows={2}
          {...register("contact_address")}
          {...fieldAria("contact_address", errors.contact_address?.message)}
        />
      </Field>
    </Section>
  );
}

export function SupportSection() {
  const { register, errors } = useSettingsForm();
  return (
    <Section id="support-settings" title="Support Settings" icon={<LifeBuoy className="size-5" aria-hidden="true" />}>
      <Field
        id="default_support_name"
        label="Default support name"
        error={errors.default_support_name?.message}
        hint="The name staff replies are signed with in support chats."
      >
        <Input
          id="default_support_name"
          placeholder="Support Team"
          {...register("default_support_name")}
          {...fieldAria("default_support_name", errors.default_support_name?.message, { hint: true })}
        />
      </Field>
    </Section>
  );
}

export function SecuritySection() {
  const { register } = useSettingsForm();
  return (
    <Section id="security-settings" title="Security Settings" icon={<Shield className="size-5" aria-hidden="true" />}>
      <Toggle
        id="admin_registration_enabled"
        label="Admin registration"
        hint={
          <>
            Lets people you invite create an administrator account at <code className="text-slate-900">/console/register</code>, the admin
            registration page. Each invitation link works once, for 24 hours.
          </>
        }
        {...register("admin_registration_enabled")}
      />
      <Toggle
        id="demo_mode"
        label="Demo mode"
        hint={
          <>
            Demo mode: the console becomes read-only for every administrator, this page included, and changes are not saved. Only a
            superuser can switch it off again: in the PocketBase dashboard (<code className="text-slate-900">/_/</code>
            ), set the settings row <code className="text-slate-900">demo_mode</code> to false, or restart the server with{" "}
            <code className="text-slate-900">SHOP_DEMO_MODE=false</code>.
          </>
        }
        {...register("demo_mode")}
      />
    </Section>
  );
}
