import { valibotResolver } from "@hookform/resolvers/valibot";
import { Globe, LifeBuoy, Mail, Shield } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import type { ConsoleSettings } from "@/features/console-settings/api";
import { InvitationsPanel } from "@/features/console-settings/components/invitations-panel";
import { SettingsPreview } from "@/features/console-settings/components/settings-preview";
import { Toggle } from "@/features/console-settings/components/toggle";
import {
  colorInputValue,
  formField,
  SettingsFormSchema,
  toFormValues,
  toSettings,
  type SettingsFormInput,
  type SettingsFormOutput,
} from "@/features/console-settings/schemas";
import { saveConsoleSettings } from "@/features/console-settings/stores";

export const SAVED_MESSAGE = "Settings updated successfully";

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

/** The four sections of System Settings, the live preview, and Save Settings. */
export function SettingsForm({ settings }: { settings: ConsoleSettings }) {
  const [banner, setBanner] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [confirmDemo, setConfirmDemo] = useState<SettingsFormOutput | null>(null);
  const [saving, setSaving] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    control,
    formState: { errors },
  } = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    resolver: valibotResolver(SettingsFormSchema),
    defaultValues: toFormValues(settings),
  });
  // While demo mode is stored on, every console write is refused: the form is read-only.
  const readOnly = settings.demo_mode;
  const [siteName, description, color, registrationOn] = useWatch({
    control,
    name: ["site_name", "site_description", "primary_color", "admin_registration_enabled"],
  });

  const save = async (values: SettingsFormOutput) => {
    setBanner(null);
    setSaving(true);
    try {
      const saved = await saveConsoleSettings(toSettings(values));
      reset(toFormValues(saved));
      setBanner({ tone: "success", text: SAVED_MESSAGE });
    } catch (err) {
      for (const [field, message] of Object.entries(fieldErrors(err))) {
        const name = formField(field);
        if (name) setError(name, { message: message.replace(/\.$/, "") });
      }
      setBanner({ tone: "error", text: errorMessage(err) });
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    // Turning demo mode on locks the console for everybody: ask first.
    if (values.demo_mode && !settings.demo_mode) {
      setConfirmDemo(values);
      return;
    }
    await save(values);
  });

  const pickerValue = colorInputValue(color) ?? "#000000";

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <aside className="lg:sticky lg:top-20 lg:col-start-3 lg:row-span-2 lg:row-start-1 lg:self-start">
        <SettingsPreview siteName={siteName} description={description} color={color} />
      </aside>

      <form
        onSubmit={onSubmit}
        noValidate
        className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-start-1"
        aria-label="System settings"
      >
        <fieldset disabled={readOnly} className="min-w-0 space-y-6">
          <legend className="sr-only">System settings</legend>
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
                  onChange={(event) =>
                    setValue("primary_color", event.target.value.toUpperCase(), { shouldDirty: true, shouldValidate: true })
                  }
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
              hint="Granted once when a new account verifies its email, and promised on the public pages. 0 turns the offer off; at most $100."
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

          <Section id="security-settings" title="Security Settings" icon={<Shield className="size-5" aria-hidden="true" />}>
            <Toggle
              id="admin_registration_enabled"
              label="Admin registration"
              hint={
                <>
                  Lets people you invite create an administrator account at <code className="text-slate-900">/console/register</code>, the
                  admin registration page. Each invitation link works once, for 24 hours.
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
        </fieldset>

        <div aria-live="polite">{banner ? <Alert tone={banner.tone}>{banner.text}</Alert> : null}</div>
        <div className="flex justify-end">
          <Button type="submit" disabled={readOnly} pending={saving} pendingText="Saving...">
            Save Settings
          </Button>
        </div>
      </form>

      {settings.admin_registration_enabled || registrationOn ? (
        <div className="min-w-0 lg:col-span-2 lg:col-start-1">
          <InvitationsPanel
            registrationOpen={settings.admin_registration_enabled}
            registrationToggledOn={registrationOn}
            readOnly={readOnly}
          />
        </div>
      ) : null}

      <Dialog
        open={confirmDemo !== null}
        onClose={() => setConfirmDemo(null)}
        title="Turn on demo mode?"
        description="Every administrator, you included, will see the console read-only. You will not be able to switch it off from the console: a superuser has to."
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirmDemo(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              const values = confirmDemo;
              setConfirmDemo(null);
              if (values) void save(values);
            }}
          >
            Turn on and save
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
