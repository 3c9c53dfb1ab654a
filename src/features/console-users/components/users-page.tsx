import { useStore } from "@nanostores/react";
import { RefreshCw, SearchX, Users } from "lucide-react";
import { useState } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { LocalDateTime } from "@/components/session/local-date-time";
import { Alert, LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Pager } from "@/components/ui/pager";
import { Select } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/cn";
import { formatCents } from "@/lib/money";
import type { UserRecord } from "@/lib/pocketbase-types";
import { SeedStores, seedFor, useSeededStore } from "@/stores/seed";
import type { AdminUser, UserPage, UserQuery } from "@/features/console-users/api";
import { BalanceDialog } from "@/features/console-users/components/balance-dialog";
import { UserDetailDialog } from "@/features/console-users/components/user-detail-dialog";
import {
  $userNotice,
  $userQuery,
  $users,
  $userSearchText,
  clearUserFilters,
  goToUserPage,
  isRole,
  openUserDetail,
  reloadUsers,
  setUserRole,
  setUserSearch,
  showNotice,
  toggleAdmin,
  usersSeeds,
} from "@/features/console-users/stores";

interface UsersPageProps {
  /** The admin the server verified for this request. */
  initialUser?: UserRecord | null;
  /** The query of the page's URL, and the page of users the server read for it (null: load here). */
  initial?: { query: UserQuery; users: UserPage | null } | null;
}

/** /console/users (admin spec 2, "User Management"). */
export function UsersPage({ initialUser = null, initial = null }: UsersPageProps) {
  return (
    <AdminGate initialUser={initialUser}>
      {(admin) => {
        const first = seedFor(initialUser, admin, initial);
        return (
          <SeedStores seeds={first ? usersSeeds(first.query, first.users) : []}>
            <UserManagement admin={admin} />
          </SeedStores>
        );
      }}
    </AdminGate>
  );
}

const fullName = (u: Pick<AdminUser, "first_name" | "last_name">) => [u.first_name, u.last_name].filter(Boolean).join(" ");

function UserManagement({ admin }: { admin: UserRecord }) {
  const list = useSeededStore($users);
  const notice = useStore($userNotice);
  const [balanceUser, setBalanceUser] = useState<AdminUser | null>(null);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">User Management</h1>
          <p className="text-sm text-slate-600">Balances, admin rights and refunds for every account.</p>
        </div>
        <Button
          variant="secondary"
          onClick={reloadUsers}
          pending={list.status === "loading" && list.data !== null}
          pendingText="Refreshing..."
        >
          <RefreshCw className="size-4" aria-hidden="true" />
          Refresh
        </Button>
      </div>
      <Filters />
      <div aria-live="polite" className="empty:hidden">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      </div>
      <UserList adminId={admin.id} onBalance={setBalanceUser} />
      <BalanceDialog
        user={balanceUser}
        onClose={() => setBalanceUser(null)}
        onDone={(message) => {
          setBalanceUser(null);
          showNotice("success", message);
          reloadUsers();
        }}
      />
      <UserDetailDialog />
    </div>
  );
}

function Filters() {
  const text = useSeededStore($userSearchText);
  const query = useSeededStore($userQuery);
  const counts = useSeededStore($users).data?.counts;
  return (
    <div className="space-y-3">
      <div role="search" aria-label="Filter users" className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <Field id="user-search" label="Search">
          <Input
            id="user-search"
            type="search"
            placeholder="Search by email or name"
            value={text}
            onChange={(e) => setUserSearch(e.target.value)}
            autoComplete="off"
          />
        </Field>
        <Field id="user-role" label="Role">
          <Select id="user-role" value={query.role} onChange={(e) => isRole(e.target.value) && setUserRole(e.target.value)}>
            <option value="all">All Roles</option>
            <option value="admins">Admins Only</option>
            <option value="users">Users Only</option>
          </Select>
        </Field>
      </div>
      <p className="text-sm text-slate-600" data-testid="user-counts">
        {counts ? (
          <>
            <span className="font-medium text-slate-900">{counts.all.toLocaleString("en-US")}</span> users ·{" "}
            <span className="font-medium text-slate-900">{counts.admins.toLocaleString("en-US")}</span> admins ·{" "}
            <span className="font-medium text-slate-900">{counts.users.toLocaleString("en-US")}</span> customers
            {query.search ? ` matching "${query.search}"` : ""}
          </>
        ) : (
          " "
        )}
      </p>
    </div>
  );
}

function UserList({ adminId, onBalance }: { adminId: string; onBalance: (user: AdminUser) => void }) {
  const list = useSeededStore($users);
  const [toggling, setToggling] = useState<string | null>(null);
  const data = list.data;

  if (list.status === "error" && !data) return <LoadError message={list.error} onRetry={reloadUsers} />;
  if (!data) {
    return (
      <div className="space-y-2" aria-busy="true" aria-label="Loading users">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-14 rounded-lg" />
        ))}
      </div>
    );
  }
  if (data.items.length === 0) {
    const filtered = list.query.search !== "" || list.query.role !== "all";
    return (
      <EmptyState
        icon={filtered ? SearchX : Users}
        title="No users found"
        text={filtered ? "Try adjusting your search or role filter" : "Accounts will appear here as people sign up"}
      >
        {filtered ? (
          <Button variant="secondary" size="sm" onClick={clearUserFilters}>
            Clear filters
          </Button>
        ) : null}
      </EmptyState>
    );
  }

  const toggle = async (user: AdminUser) => {
    setToggling(user.id);
    await toggleAdmin(user.id, user.email, !user.is_admin);
    setToggling(null);
  };

  return (
    <div className="space-y-4">
      {list.status === "error" ? <Alert tone="error">{list.error}</Alert> : null}
      <div
        className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
        tabIndex={0}
        role="region"
        aria-label="Users table (scrolls sideways on small screens)"
      >
        <table
          className={cn("w-full min-w-[44rem] text-left text-sm", list.status === "loading" && "opacity-60")}
          aria-busy={list.status === "loading"}
        >
          <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                User
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Balance
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Status
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Joined
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.items.map((user) => {
              const self = user.id === adminId;
              return (
                <tr key={user.id} data-testid="user-row">
                  <td className="max-w-64 px-4 py-3">
                    <p className="truncate font-medium text-slate-900">{fullName(user) || "—"}</p>
                    <p className="truncate text-xs text-slate-600">{user.email}</p>
                  </td>
                  <td className="px-4 py-3 font-medium whitespace-nowrap text-slate-900 tabular-nums" data-testid="user-balance">
                    {formatCents(user.balance_cents)}
                  </td>
                  <td className="px-4 py-3">
                    <span className="flex flex-wrap gap-1">
                      {user.is_admin ? <Badge tone="info">Admin</Badge> : <Badge>User</Badge>}
                      {user.verified ? null : <Badge tone="warning">Unverified</Badge>}
                    </span>
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                    <LocalDateTime value={user.created} dateOnly />
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex flex-wrap gap-2">
                      <Button size="sm" variant="secondary" onClick={() => onBalance(user)} aria-label={`Adjust balance of ${user.email}`}>
                        Balance
                      </Button>
                      <Button size="sm" variant="secondary" onClick={() => openUserDetail(user.id)} aria-label={`Details of ${user.email}`}>
                        Details
                      </Button>
                      {self ? (
                        <span className="self-center text-xs text-slate-500">You</span>
                      ) : (
                        <Button
                          size="sm"
                          variant={user.is_admin ? "ghost" : "secondary"}
                          pending={toggling === user.id}
                          pendingText="Saving..."
                          onClick={() => void toggle(user)}
                          aria-label={
                            user.is_admin ? `Remove admin privileges of ${user.email}` : `Grant admin privileges to ${user.email}`
                          }
                        >
                          {user.is_admin ? "Remove admin" : "Make admin"}
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {data.totalPages > 1 ? (
        <Pager page={data.page} hasNext={data.page < data.totalPages} onPage={goToUserPage} disabled={list.status === "loading"} />
      ) : null}
    </div>
  );
}
