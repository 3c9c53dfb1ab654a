import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { FormProvider, useForm, useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import type { ConsoleSettings } from "@/features/console-settings/api";
import { InvitationsPanel } from "@/features/console-settings/components/invitations-panel";
import { SettingsPreview } from "@/features/console-settings/components/settings-preview";
import {
  ContactSection,
  GatewaySection,
  SecuritySection,
  SiteSection,
  SupportSection,
} from "@/features/console-settings/components/settings-sections";
import {
  formField,
  SettingsFormSchema,
  toFormValues,
  toSettings,
  type SettingsFormInput,
  type SettingsFormOutput,
} from "@/features/console-settings/schemas";
import { saveConsoleSettings } from "@/features/console-settings/stores";

export const SAVED_MESSAGE = "Settings updated successfully";

/** The sections of System Settings, the live preview, and Save Settings. */
export function SettingsForm({ settings }: { settings: ConsoleSettings }) {
  const [banner, setBanner] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [confirmDemo, setConfirmDemo] = useState<SettingsFormOutput | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<SettingsFormInput, unknown, SettingsFormOutput>({
    resolver: valibotResolver(SettingsFormSchema),
    defaultValues: toFormValues(settings),
  });
  const { handleSubmit, setError, reset, control } = form;
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
          <FormProvider {...form}>
            <SiteSection />
            <ContactSection />
            <SupportSection />
            <GatewaySection />
            <SecuritySection />
          </FormProvider>
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
