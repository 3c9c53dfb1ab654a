import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { KeyRound, Network, ShieldAlert, User } from "lucide-react";
import { AuthGate } from "@/components/session/auth-gate";
import { SetPasswordByEmail } from "@/features/account/components/set-password-by-email";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Input } from "@/components/ui/input";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";

const TABS = ["Profile", "Security", "API Access", "Webhooks", "Activity"] as const;
/** The proxy IP allowlist's section (in Security): My Proxies links to /dashboard/settings#ip-allowlist. */
const IP_ALLOWLIST_ID = "ip-allowlist";

// The password form (react-hook-form, valibot) loads when the Security tab first opens,
// keeping the page within the dashboard's JavaScript budget.
const ChangePasswordForm = lazyComponent(
  () => import("@/features/account/components/change-password-form"),
  "ChangePasswordForm",
  <Skeleton className="h-64 max-w-md" />,
);

// The IP allowlist form loads with the Security tab, like the password form.
const IpAllowlistForm = lazyComponent(
  () => import("@/features/account/components/ip-allowlist-form"),
  "IpAllowlistForm",
  <Skeleton className="h-48 max-w-md" />,
);

// The profile form (react-hook-form, valibot, the country list) loads when the customer
// asks to edit, keeping the page within the dashboard's JavaScript budget.
const ProfileForm = lazyComponent(
  () => import("@/features/account/components/profile-form"),
  "ProfileForm",
  <Skeleton className="h-72 max-w-md" />,
);

// The developer API's panels (issue #18) load when their tab first opens.
const ApiKeysPanel = lazyComponent(
  () => import("@/features/account/api-keys/components/api-keys-panel"),
  "ApiKeysPanel",
  <Skeleton className="h-64" />,
);
const WebhooksPanel = lazyComponent(
  () => import("@/features/account/webhooks/components/webhooks-panel"),
  "WebhooksPanel",
  <Skeleton className="h-64" />,
);
const ActivityPanel = lazyComponent(
  () => import("@/features/account/components/activity-panel"),
  "ActivityPanel",
  <Skeleton className="h-64" />,
);

/** The customer's names and country, and Edit Profile, which opens the form in their place. */
function ProfileDetails({ user }: { user: UserRecord }) {
  const [editing, setEditing] = useState(false);
  if (editing) return <ProfileForm user={user} />;
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="profile-details">
        <dt className="font-medium text-slate-700">Name</dt>
        <dd className="break-words text-slate-900">{[user.first_name, user.last_name].filter(Boolean).join(" ") || "-"}</dd>
        <dt className="font-medium text-slate-700">Country</dt>
        <dd className="text-slate-900">{user.country || "-"}</dd>
      </dl>
      <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
        Edit Profile
      </Button>
    </div>
  );
}

/** /dashboard/settings (spec 2.20). */
export function SettingsPage() {
  return <AuthGate>{(user) => <Settings user={user} />}</AuthGate>;
}

function Settings({ user }: { user: UserRecord }) {
  // A link to the allowlist opens the Security tab and scrolls to it (the section mounts after
  // the session is known, so the browser's own scroll to the fragment found nothing).
  const [toAllowlist] = useState(() => typeof window !== "undefined" && window.location.hash === `#${IP_ALLOWLIST_ID}`);
  useEffect(() => {
    if (toAllowlist) document.getElementById(IP_ALLOWLIST_ID)?.scrollIntoView();
  }, [toAllowlist]);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Account Settings</h1>
        <p className="text-sm text-slate-600">Manage your profile and security.</p>
      </div>
      <TabGroup defaultIndex={toAllowlist ? TABS.indexOf("Security") : 0} className="rounded-xl border border-slate-200 bg-white shadow-sm">
        {/* Five tabs wrap onto a second row on a phone rather than push the page sideways. */}
        <TabList className="flex flex-wrap gap-x-1 border-b border-slate-200 px-2 sm:px-4">
          {TABS.map((label) => (
            <Tab
              key={label}
              className="-mb-px border-b-2 border-transparent px-3 py-3 text-sm font-medium text-slate-600 hover:text-slate-900 data-selected:border-primary data-selected:text-primary sm:px-4"
            >
              {label}
            </Tab>
          ))}
        </TabList>
        <TabPanels className="p-6">
          <TabPanel className="max-w-md space-y-5">
            <h2 className="flex items-center gap-2 text-lg font-semibold">
              <User className="size-5" aria-hidden="true" /> Profile
            </h2>
            <ProfileDetails user={user} />
            <div className="space-y-1">
              <label htmlFor="profile-email" className="block text-sm font-medium text-slate-700">
                Email address
              </label>
              <Input id="profile-email" value={user.email} readOnly aria-describedby="profile-email-help" className="bg-slate-50" />
              <p id="profile-email-help" className="text-xs text-slate-500">
                Contact support to change your email address
              </p>
            </div>
            <div className="space-y-1">
              <span className="block text-sm font-medium text-slate-700">Account Type</span>
              <p className="text-sm text-slate-900" data-testid="account-type">
                {user.is_admin ? "Administrator" : "User"}
              </p>
            </div>
          </TabPanel>
          <TabPanel className="space-y-8">
            <section className="space-y-4">
              <h2 className="flex items-center gap-2 text-lg font-semibold">
                <KeyRound className="size-5" aria-hidden="true" /> {user.password_set ? "Change Password" : "Set a Password"}
              </h2>
              {user.password_set ? <ChangePasswordForm /> : <SetPasswordByEmail email={user.email} />}
            </section>
            <section className="rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              <h2 className="flex items-center gap-2 font-semibold">
                <ShieldAlert className="size-4" aria-hidden="true" /> Two-Factor Authentication
              </h2>
              <p className="mt-1">Two-factor authentication is not yet enabled for your account.</p>
            </section>
            <section id={IP_ALLOWLIST_ID} className="scroll-mt-24 space-y-3" aria-labelledby={`${IP_ALLOWLIST_ID}-title`}>
              <h2 id={`${IP_ALLOWLIST_ID}-title`} className="flex items-center gap-2 text-lg font-semibold">
                <Network className="size-5" aria-hidden="true" /> Proxy IP allowlist
              </h2>
              <p className="max-w-xl text-sm text-slate-600">
                When set, your proxies answer only connections from these addresses or ranges: a connection from anywhere else is refused,
                even with the right username and password. Leave it empty to use your proxies from any address.
              </p>
              <IpAllowlistForm />
            </section>
          </TabPanel>
          <TabPanel>
            <ApiKeysPanel />
          </TabPanel>
          <TabPanel>
            <WebhooksPanel />
          </TabPanel>
          <TabPanel>
            <ActivityPanel />
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}
