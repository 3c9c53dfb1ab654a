// The sections of the System Settings form. Each reads the form from the FormProvider above.
import { Globe, LifeBuoy, Mail, Network, Shield } from "lucide-react";
import type { ReactNode } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { Card } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { lazyComponent } from "@/lib/lazy-component";
import { Toggle } from "@/features/console-settings/components/toggle";
import { colorInputValue, MAX_WELCOME_DOLLARS, type SettingsFormInput, type SettingsFormOutput } from "@/features/console-settings/schemas";

/** The gateway tokens load with their own chunk: most shops run the one gateway inside PocketBase. */
const GatewayTokensPanel = lazyComponent(() => import("@/features/console-settings/components/gateway-tokens-panel"), "GatewayTokensPanel");

/** The settings form (the FormProvider above). */
const useSettingsForm = () => useFormContext<SettingsFormInput, unknown, SettingsFormOutput>();

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

/** A whole number typed in a short field, with its label and hint. */
function WholeNumberField(props: {
  name: "welcome_credits_per_address_per_day" | "upstream_offline_after_seconds";
  label: string;
  hint: string;
}) {
  return (
    <FormField form={useSettingsForm()} {...props}>
      {(field) => <Input inputMode="numeric" className="max-w-40" {...field} />}
    </FormField>
  );
}

export function SiteSection() {
  const form = useSettingsForm();
  const color = useWatch({ control: form.control, name: "primary_color" });
  const pickerValue = colorInputValue(color) ?? "#000000";
  return (
    <Section id="site-configuration" title="Site Configuration" icon={<Globe className="size-5" aria-hidden="true" />}>
      <FormField form={form} name="site_name" label="Site name">
        {(field) => <Input {...field} />}
      </FormField>
      <FormField form={form} name="site_description" label="Site description">
        {(field) => <Textarea rows={3} {...field} />}
      </FormField>
      <FormField form={form} name="primary_color" label="Primary color">
        {(field) => (
          <div className="flex items-center gap-3">
            <input
              type="color"
              aria-label="Pick the primary color"
              value={pickerValue}
              onChange={(event) =>
                form.setValue("primary_color", event.target.value.toUpperCase(), { shouldDirty: true, shouldValidate: true })
              }
              className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-slate-300 bg-white p-1"
            />
            <Input className="max-w-40 font-mono" placeholder="#3B82F6" spellCheck={false} {...field} />
          </div>
        )}
      </FormField>
      <FormField form={form} name="logo_url" label="Logo URL (optional)">
        {(field) => <Input type="url" inputMode="url" placeholder="https://cdn.example.com/logo.svg" {...field} />}
      </FormField>
      <FormField
        form={form}
        name="welcome_credit"
        label="Welcome credit for new customers (USD)"
        hint={`Granted once when a new account verifies its email, and promised on the public pages. 0 turns the offer off; at most $${MAX_WELCOME_DOLLARS}.`}
      >
        {(field) => <Input inputMode="decimal" className="max-w-40" {...field} />}
      </FormField>
      <FormField
        form={form}
        name="welcome_credit_spendable"
        label="Welcome credit spendable before a first purchase (USD)"
        hint="How much of the welcome credit buys proxies before the customer's first card payment. At or above the welcome credit, all of it; 0 keeps the whole welcome credit until a first payment."
      >
        {(field) => <Input inputMode="decimal" className="max-w-40" {...field} />}
      </FormField>
      <WholeNumberField
        name="welcome_credits_per_address_per_day"
        label="Welcome credits per sign-up address a day"
        hint="Accounts signed up from one network address get the welcome credit this many times a day; the others work normally without it. 0 means no limit."
      />
    </Section>
  );
}

export function ContactSection() {
  const form = useSettingsForm();
  return (
    <Section id="contact-information" title="Contact Information" icon={<Mail className="size-5" aria-hidden="true" />}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="contact_email" label="Email">
          {(field) => <Input type="email" autoComplete="off" {...field} />}
        </FormField>
        <FormField form={form} name="contact_phone" label="Phone number">
          {(field) => <Input type="tel" autoComplete="off" {...field} />}
        </FormField>
      </div>
      <FormField form={form} name="contact_address" label="Address (optional)">
        {(field) => <Textarea rows={2} {...field} />}
      </FormField>
      <FormField
        form={form}
        name="support_hours"
        label="Support hours"
        hint="Shown wherever the public pages state support hours (Contact, Docs, Home, Sign in)."
      >
        {(field) => <Input placeholder="Monday-Friday 9 AM-6 PM EST" {...field} />}
      </FormField>
    </Section>
  );
}

export function SupportSection() {
  const form = useSettingsForm();
  return (
    <Section id="support-settings" title="Support Settings" icon={<LifeBuoy className="size-5" aria-hidden="true" />}>
      <FormField
        form={form}
        name="default_support_name"
        label="Default support name"
        hint="The name staff replies are signed with in support chats."
      >
        {(field) => <Input placeholder="Support Team" {...field} />}
      </FormField>
      <FormField
        form={form}
        name="staff_notification_email"
        label="Staff notification email (optional)"
        hint="New support tickets and contact-form messages are mailed here. Empty: the contact email above. Never shown on the public pages."
      >
        {(field) => <Input type="email" autoComplete="off" placeholder="staff@example.com" {...field} />}
      </FormField>
    </Section>
  );
}

/**
 * The proxy gateway (issue #16): the name customers connect to, the local addresses Generate
 * uses, the ranges it may reach, and the tokens of gateways on other machines.
 */
export function GatewaySection() {
  const form = useSettingsForm();
  // The form's defaults are the stored settings: demo mode stored on makes the console read-only.
  const readOnly = form.formState.defaultValues?.demo_mode === true;
  return (
    <Section id="proxy-gateway" title="Proxy gateway" icon={<Network className="size-5" aria-hidden="true" />}>
      <FormField
        form={form}
        name="gateway_public_host"
        label="Public host (optional)"
        hint="The host name or IP address customers connect to: the host of every proxy, on its card and in its exports. Empty: the shop's own host name. Changing it moves every proxy to the new host at once."
      >
        {(field) => <Input autoComplete="off" spellCheck={false} placeholder="proxy.example.com" className="font-mono" {...field} />}
      </FormField>
      <FormField
        form={form}
        name="gateway_bind_addresses"
        label="Bind addresses (optional)"
        hint="Local IP addresses of the gateway machine, one per line or separated by commas. Generate spreads new proxies over them, one after another, so each leaves from its own address. Empty: the machine's default address. Never shown to customers."
      >
        {(field) => <Textarea rows={3} spellCheck={false} placeholder={"203.0.113.10\n203.0.113.11"} className="font-mono" {...field} />}
      </FormField>
      <FormField
        form={form}
        name="gateway_allowed_ranges"
        label="Allowed private ranges (optional)"
        hint="CIDR ranges the gateway may still connect to, one per line or separated by commas. Only matters when the gateway listens beyond loopback: then it refuses loopback, private, link-local, CGNAT and cloud metadata addresses, except these. On loopback (the default of npm start) every address is reachable."
      >
        {(field) => <Textarea rows={2} spellCheck={false} placeholder="10.20.0.0/16" className="font-mono" {...field} />}
      </FormField>
      <WholeNumberField
        name="upstream_offline_after_seconds"
        label="Failing upstreams leave stock after (seconds)"
        hint="An upstream the gateway cannot reach for this long is taken off sale until it answers again, and a customer's proxy through it gets a new exit from stock. Default 120."
      />
      <GatewayTokensPanel readOnly={readOnly} />
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
