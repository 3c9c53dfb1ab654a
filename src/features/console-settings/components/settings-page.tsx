import { useStore } from "@nanostores/react";
import { AdminGate } from "@/components/session/admin-gate";
import { LoadError } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { PageHeader } from "@/components/ui/page-header";
import { SettingsForm } from "@/features/console-settings/components/settings-form";
import { $consoleSettings, reloadConsoleSettings } from "@/features/console-settings/stores";

/** /console/settings: System Settings (admin spec 2, "System Settings"). */
export function ConsoleSettingsPage() {
  return <AdminGate>{() => <SettingsScreen />}</AdminGate>;
}

function SettingsScreen() {
  const state = useStore($consoleSettings);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="System Settings"
        description="Branding, contact details, support, the proxy gateway and security of the whole shop."
      />
      {state.settings ? (
        <SettingsForm settings={state.settings} />
      ) : state.status === "error" ? (
        <LoadError message={state.error} onRetry={reloadConsoleSettings} />
      ) : (
        <SettingsSkeleton />
      )}
    </div>
  );
}

function SettingsSkeleton() {
  return (
    <div className="grid gap-6 lg:grid-cols-3" aria-busy="true" aria-label="Loading settings">
      <div className="space-y-6 lg:col-span-2">
        {[4, 3, 1, 3, 2].map((rows, i) => (
          <Card key={i} className="space-y-4">
            <Skeleton className="h-6 w-48" />
            {Array.from({ length: rows }, (_, j) => (
              <Skeleton key={j} className="h-10 w-full" />
            ))}
          </Card>
        ))}
      </div>
      <Card className="h-64">
        <Skeleton className="h-full w-full" />
      </Card>
    </div>
  );
}
