// The User Management table's columns. The row actions read who is signed in from
// AdminIdContext (an admin cannot change their own rights) and open dialogs through the stores.
import { createColumnHelper } from "@tanstack/react-table";
import { createContext, useContext, useState } from "react";
import { LocalDateTime } from "@/components/session/local-date-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatCents } from "@/lib/money";
import type { AdminUser } from "@/features/console-users/api";
import { openBalanceDialog, openUserDetail, openUserTool, removeAdmin } from "@/features/console-users/stores";

/** The id of the signed-in admin. */
export const AdminIdContext = createContext("");

const fullName = (u: Pick<AdminUser, "first_name" | "last_name">) => [u.first_name, u.last_name].filter(Boolean).join(" ");

/** The name the console shows: "Deleted user" for an account deleted on request. */
export const displayName = (u: Pick<AdminUser, "first_name" | "last_name" | "deleted">) => (u.deleted ? "Deleted user" : fullName(u));

const column = createColumnHelper<AdminUser>();

export const USER_COLUMNS = [
  column.display({
    id: "user",
    header: "User",
    meta: { className: "max-w-64" },
    cell: ({ row: { original: user } }) => (
      <>
        <p className="truncate font-medium text-slate-900">{displayName(user) || "—"}</p>
        <p className="truncate text-xs text-slate-600">{user.email}</p>
      </>
    ),
  }),
  column.accessor("balance_cents", {
    header: "Balance",
    meta: { cellClassName: "font-medium whitespace-nowrap text-slate-900 tabular-nums" },
    cell: ({ getValue }) => <span data-testid="user-balance">{formatCents(getValue())}</span>,
  }),
  column.display({
    id: "status",
    header: "Status",
    cell: ({ row: { original: user } }) => (
      <span className="flex flex-wrap gap-1">
        {user.is_admin ? <Badge tone="info">Admin</Badge> : <Badge>User</Badge>}
        {user.deleted ? <Badge tone="danger">Deleted</Badge> : user.suspended ? <Badge tone="danger">Suspended</Badge> : null}
        {user.verified || user.deleted ? null : <Badge tone="warning">Unverified</Badge>}
      </span>
    ),
  }),
  column.accessor("created", {
    header: "Joined",
    meta: { cellClassName: "whitespace-nowrap text-slate-600", secondary: true },
    cell: ({ getValue }) => <LocalDateTime value={getValue()} dateOnly />,
  }),
  column.display({
    id: "actions",
    header: "Actions",
    cell: ({ row }) => <UserActions user={row.original} />,
  }),
];

function UserActions({ user }: { user: AdminUser }) {
  const adminId = useContext(AdminIdContext);
  const [saving, setSaving] = useState(false);
  const remove = async () => {
    setSaving(true);
    await removeAdmin(user.id, user.email);
    setSaving(false);
  };
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="sm" variant="secondary" onClick={() => openBalanceDialog(user)} aria-label={`Adjust balance of ${user.email}`}>
        Balance
      </Button>
      <Button size="sm" variant="secondary" onClick={() => openUserDetail(user.id)} aria-label={`Details of ${user.email}`}>
        Details
      </Button>
      {user.id === adminId ? (
        <span className="self-center text-xs text-slate-500">You</span>
      ) : user.deleted ? null : (
        <Button
          size="sm"
          variant={user.is_admin ? "ghost" : "secondary"}
          pending={saving}
          pendingText="Saving..."
          onClick={() => (user.is_admin ? void remove() : openUserTool("make-admin", user))}
          aria-label={user.is_admin ? `Remove admin privileges of ${user.email}` : `Grant admin privileges to ${user.email}`}
        >
          {user.is_admin ? "Remove admin" : "Make admin"}
        </Button>
      )}
    </div>
  );
}
