import { useStore } from "@nanostores/react";
import { Users } from "lucide-react";
import { AdminGate } from "@/components/session/admin-gate";
import { LiveAlert } from "@/components/ui/alert";
import { RefreshButton } from "@/components/ui/button";
import { FilteredEmptyState, type EmptyTexts } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { DataTable } from "@/components/ui/data-table";
import { ListState } from "@/components/ui/list-state";
import { PageHeader } from "@/components/ui/page-header";
import { SearchField } from "@/components/ui/search-field";
import { Select } from "@/components/ui/select";
import { lazyComponent } from "@/lib/lazy-component";
import type { UserRecord } from "@/lib/pocketbase-types";
import { SeedStores, seedFor, useSeededStore } from "@/stores/seed";
import type { AdminUser, UserPage, UserQuery } from "@/features/console-users/api";
import { AdminIdContext, USER_COLUMNS } from "@/features/console-users/columns";
import { BalanceDialog } from "@/features/console-users/components/balance-dialog";
import { UserTools } from "@/features/console-users/components/user-tools";
import {
  $balanceUser,
  $userDetail,
  $userNotice,
  $userQuery,
  $users,
  $userSearchText,
  clearUserFilters,
  closeBalanceDialog,
  goToUserPage,
  isRole,
  reloadUsers,
  setUserRole,
  setUserSearch,
  showNotice,
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

const NO_USERS: AdminUser[] = [];

// The user drawer and its tools load when a drawer first opens.
const UserDetailDialog = lazyComponent(() => import("@/features/console-users/components/user-detail-dialog"), "UserDetailDialog");

function UserDrawer() {
  return useStore($userDetail).userId === null ? null : <UserDetailDialog />;
}

function UserManagement({ admin }: { admin: UserRecord }) {
  const list = useSeededStore($users);
  const notice = useStore($userNotice);
  const balanceUser = useStore($balanceUser);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="User Management" description="Balances, admin rights and refunds for every account.">
        <RefreshButton onRefresh={reloadUsers} pending={list.status === "loading" && list.data !== null} />
      </PageHeader>
      <Filters />
      <LiveAlert tone={notice?.tone}>{notice?.text}</LiveAlert>
      <AdminIdContext value={admin.id}>
        <UserList />
        <UserDrawer />
      </AdminIdContext>
      <UserTools inDetail={false} />
      <BalanceDialog
        user={balanceUser}
        onClose={closeBalanceDialog}
        onDone={(message) => {
          closeBalanceDialog();
          showNotice("success", message);
          reloadUsers();
        }}
      />
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
        <SearchField id="user-search" placeholder="Search by email or name" value={text} onSearch={setUserSearch} />
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
            <Counted n={counts.all} one="user" many="users" /> · <Counted n={counts.admins} one="admin" many="admins" /> ·{" "}
            <Counted n={counts.users} one="customer" many="customers" />
            {query.search ? ` matching "${query.search}"` : ""}
          </>
        ) : (
          " "
        )}
      </p>
    </div>
  );
}

const NO_USERS_TEXTS: EmptyTexts = {
  icon: Users,
  title: "No users found",
  filteredText: "Try adjusting your search or role filter",
  emptyText: "Accounts will appear here as people sign up",
};

function UserList() {
  const list = useSeededStore($users);
  const data = list.data;
  const filtered = list.query.search !== "" || list.query.role !== "all";
  return (
    <ListState
      status={list.status}
      error={list.error}
      loaded={data !== null}
      empty={data?.items.length === 0}
      onRetry={reloadUsers}
      loadingLabel="Loading users"
      emptyState={<FilteredEmptyState texts={NO_USERS_TEXTS} filtered={filtered} onClear={clearUserFilters} />}
    >
      <DataTable
        columns={USER_COLUMNS}
        data={data?.items ?? NO_USERS}
        label="Users table (scrolls sideways on small screens)"
        className="min-w-[36rem]"
        busy={list.status === "loading"}
        rowTestId="user-row"
        paging={data ? { page: data.page, totalPages: data.totalPages, onPage: goToUserPage } : undefined}
      />
    </ListState>
  );
}

/** "1 user", "2 users" with the number in bold (issue #28: never "1 users"). */
function Counted({ n, one, many }: { n: number; one: string; many: string }) {
  return (
    <>
      <span className="font-medium text-slate-900">{n.toLocaleString("en-US")}</span> {n === 1 ? one : many}
    </>
  );
}
