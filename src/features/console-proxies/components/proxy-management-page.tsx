// /console/proxies (admin spec "Proxy Management"): title and subtitle, the banner, the
// Total / Available / Assigned / Expired cards, and the Inventory, Generate and Import tabs.
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { useStore } from "@nanostores/react";
import { CircleCheck, Clock, Server, UserCheck, X } from "lucide-react";
import { lazy, Suspense, type ReactNode } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { SeededPage } from "@/components/session/seeded-page";
import { Alert, LoadError } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { ListSkeleton } from "@/components/ui/list-state";
import { StatGrid } from "@/components/ui/stat-grid";
import { PageHeader } from "@/components/ui/page-header";
import { cn } from "@/lib/cn";
import { InventoryTab } from "@/features/console-proxies/components/inventory-tab";
import type { FirstDataProps } from "@/lib/server/first-data";
import { useSeededStore } from "@/stores/seed";
import type { proxyManagementFirstData } from "@/features/console-proxies/api";
import { $banner, $proxyStats, inventorySeeds, reloadStats, showBanner } from "@/features/console-proxies/stores";

/** The first inventory page and the stats the server read (null parts load here). */
export function ProxyManagementPage(props: FirstDataProps<typeof proxyManagementFirstData>) {
  return <SeededPage Gate={AdminGate} admin {...props} seeds={inventorySeeds} Page={ProxyManagement} />;
}

const TABS = ["Inventory", "Generate", "Import"] as const;

// The Generate tab's pickers (Headless UI Combobox) and the Import tab load when opened.
const GenerateTab = lazy(() => import("@/features/console-proxies/components/generate-tab").then((m) => ({ default: m.GenerateTab })));
const ImportTab = lazy(() => import("@/features/console-proxies/components/import-tab").then((m) => ({ default: m.ImportTab })));

/** A tab that loads when opened, in a card, with skeleton rows until it has. */
function LazyTabPanel({ children }: { children: ReactNode }) {
  return (
    <TabPanel className="focus:outline-none">
      <Card>
        <Suspense fallback={<ListSkeleton label="Loading" rows={3} className="space-y-3" rowClassName="h-10 rounded-md" />}>
          {children}
        </Suspense>
      </Card>
    </TabPanel>
  );
}

function ProxyManagement() {
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="Proxy Management"
        description="Manage the proxy inventory: edit and remove proxies, generate new ones or import a list."
      />
      <Banner />
      <Stats />
      <TabGroup>
        <TabList aria-label="Proxy management" className="flex gap-1 overflow-x-auto border-b border-slate-200">
          {TABS.map((name) => (
            <Tab
              key={name}
              className={cn(
                "-mb-px shrink-0 border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 focus:outline-none",
                "data-focus:ring-2 data-focus:ring-primary/30 data-selected:border-primary data-selected:text-primary",
              )}
            >
              {name}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="mt-4">
          <TabPanel className="focus:outline-none">
            <InventoryTab />
          </TabPanel>
          <LazyTabPanel>
            <GenerateTab />
          </LazyTabPanel>
          <LazyTabPanel>
            <ImportTab />
          </LazyTabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}

function Banner() {
  const banner = useStore($banner);
  return (
    <div aria-live="polite" className="empty:hidden">
      {banner ? (
        <Alert tone={banner.tone} className="flex items-start justify-between gap-3">
          <span data-testid="proxy-banner">{banner.text}</span>
          <button
            type="button"
            onClick={() => showBanner(null)}
            aria-label="Dismiss message"
            className="shrink-0 opacity-70 hover:opacity-100"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </Alert>
      ) : null}
    </div>
  );
}

function Stats() {
  const { status, stats, error } = useSeededStore($proxyStats);
  if (status === "error" && !stats) return <LoadError message={error} onRetry={reloadStats} />;
  const value = (n: number | undefined) => (n ?? 0).toLocaleString("en-US");
  return (
    <StatGrid
      className="grid-cols-2 gap-3"
      loading={!stats}
      stats={[
        { label: "Total", value: value(stats?.total), icon: Server, testId: "stat-total" },
        { label: "Available", value: value(stats?.available), icon: CircleCheck, testId: "stat-available" },
        { label: "Assigned", value: value(stats?.assigned), icon: UserCheck, testId: "stat-assigned" },
        { label: "Expired", value: value(stats?.expired), icon: Clock, testId: "stat-expired" },
      ]}
    />
  );
}
