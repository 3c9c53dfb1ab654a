import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { KeyRound, ShieldAlert, User } from "lucide-react";
import { AuthGate } from "@/components/session/auth-gate";
import { SetPasswordByEmail } from "@/features/account/components/set-password-by-email";
import { Skeleton } from "@/components/ui/skeleton";
import { Input } from "@/components/ui/input";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";

const TABS = ["Profile", "Security", "API Access"] as const;

// The password form (react-hook-form, valibot) loads when the Security tab first opens,
// keeping the page within the dashboard's JavaScript budget.
const ChangePasswordForm = lazyComponent(
  () => import("@/features/account/components/change-password-form"),
  "ChangePasswordForm",
  <Skeleton className="h-64 max-w-md" />,
);

/** /dashboard/settings (spec 2.20). */
export function SettingsPage() {
  return <AuthGate>{(user) => <Settings user={user} />}</AuthGate>;
}

function Settings({ user }: { user: UserRecord }) {
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Account Settings</h1>
        <p className="text-sm text-slate-600">Manage your profile and security.</p>
      </div>
      <TabGroup className="rounded-xl border border-slate-200 bg-white shadow-sm">
        <TabList className="flex gap-1 border-b border-slate-200 px-4">
          {TABS.map((label) => (
            <Tab
              key={label}
              className="-mb-px border-b-2 border-transparent px-4 py-3 text-sm font-medium text-slate-600 hover:text-slate-900 data-selected:border-primary data-selected:text-primary"
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
          </TabPanel>
          <TabPanel>
            <div className="py-10 text-center">
              <h2 className="text-lg font-semibold text-slate-900">API Access Coming Soon</h2>
              <p className="mt-2 text-sm text-slate-600">Programmatic access to your proxies and balance is on its way.</p>
            </div>
          </TabPanel>
        </TabPanels>
      </TabGroup>
    </div>
  );
}
