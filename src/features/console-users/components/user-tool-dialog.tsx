// The confirm dialog of each user tool (issue #15, the admin's tools): make admin and
// delete on request need the user's e-mail typed, change e-mail asks for the new address,
// the others say what will happen. The server checks everything again
// (pocketbase/pb_hooks/lib/accounts/); its refusals show here, in words.
import { useState, type FormEvent } from "react";
import { LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api-error";
import { userTool, type AdminUser } from "@/features/console-users/api";
import { closeUserTool, userToolDone, type UserToolKind } from "@/features/console-users/stores";

interface ToolText {
  title: string;
  /** What happens, in a sentence or two. */
  explain: (user: AdminUser) => string;
  button: string;
  pendingText: string;
  danger?: boolean;
  /** The user's e-mail must be typed. */
  typed?: boolean;
}

const TOOLS: Record<UserToolKind, ToolText> = {
  "make-admin": {
    title: "Make admin",
    explain: (u) =>
      `${u.email} will be able to manage users, balances, proxies and settings in the console. Type their e-mail address to confirm.`,
    button: "Make admin",
    pendingText: "Granting...",
    typed: true,
  },
  email: {
    title: "Change e-mail",
    explain: (u) =>
      `A notice goes to ${u.email}. The new address becomes the user's sign-in and must be verified: the verification e-mail goes to it.`,
    button: "Change e-mail",
    pendingText: "Saving...",
  },
  verify: {
    title: "Mark verified",
    explain: (u) => `Marks ${u.email} as verified, as the verification link would (the welcome credit follows, once per account).`,
    button: "Mark verified",
    pendingText: "Saving...",
  },
  verification: {
    title: "Resend verification",
    explain: (u) => `Sends the verification e-mail to ${u.email} again.`,
    button: "Send e-mail",
    pendingText: "Sending...",
  },
  suspend: {
    title: "Suspend user",
    explain: (u) =>
      `${u.email} is signed out everywhere at once and cannot sign in until unsuspended. Their proxies are refused at once (open connections are cut) and work again when unsuspended, until they expire. Their balance and orders stay.`,
    button: "Suspend",
    pendingText: "Suspending...",
    danger: true,
  },
  unsuspend: {
    title: "Unsuspend user",
    explain: (u) => `${u.email} can sign in again.`,
    button: "Unsuspend",
    pendingText: "Saving...",
  },
  delete: {
    title: "Delete user on request",
    explain: (u) =>
      `Erases the personal data of ${u.email} (e-mail, names, country, support tickets) and ends their access for good. Ledger rows, orders and payments are kept, anonymised, for accounting; their proxies are refused at once. This cannot be undone. Type their e-mail address to confirm.`,
    button: "Delete user",
    pendingText: "Deleting...",
    danger: true,
    typed: true,
  },
};

/** The success message of each tool. */
function doneText(kind: UserToolKind, user: AdminUser, answer: AdminUser): string {
  switch (kind) {
    case "make-admin":
      return `${user.email} granted admin privileges`;
    case "email":
      return `E-mail changed to ${answer.email}. A notice went to ${user.email}; the new address must be verified.`;
    case "verify":
      return `${user.email} marked verified`;
    case "verification":
      return `Verification e-mail sent to ${user.email}`;
    case "suspend":
      return `${user.email} suspended: their sessions have ended and their proxies are refused`;
    case "unsuspend":
      return `${user.email} unsuspended`;
    case "delete":
      return `The account of ${user.email} was deleted: personal data erased, ledger and orders kept`;
  }
}

function call(kind: UserToolKind, user: AdminUser, value: string): Promise<AdminUser> {
  switch (kind) {
    case "make-admin":
      return userTool(user.id, "admin", { is_admin: true, confirm_email: value });
    case "email":
      return userTool(user.id, "email", { email: value });
    case "verify":
      return userTool(user.id, "verify");
    case "verification":
      return userTool(user.id, "verification");
    case "suspend":
    case "unsuspend":
      return userTool(user.id, "suspension", { suspended: kind === "suspend" });
    case "delete":
      return userTool(user.id, "delete", { confirm_email: value });
  }
}

interface UserToolDialogProps {
  tool: { kind: UserToolKind; user: AdminUser } | null;
}

export function UserToolDialog({ tool }: UserToolDialogProps) {
  const text = tool ? TOOLS[tool.kind] : null;
  return (
    <Dialog
      open={tool !== null}
      onClose={closeUserTool}
      title={text?.title ?? ""}
      description={tool && text ? text.explain(tool.user) : ""}
    >
      {tool ? <ToolForm key={`${tool.kind}-${tool.user.id}`} kind={tool.kind} user={tool.user} /> : null}
    </Dialog>
  );
}

function ToolForm({ kind, user }: { kind: UserToolKind; user: AdminUser }) {
  const text = TOOLS[kind];
  const [value, setValue] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const id = `user-tool-${kind}`;
  const needsValue = text.typed === true || kind === "email";
  const ready = text.typed ? value.trim().toLowerCase() === user.email.toLowerCase() : kind === "email" ? value.trim() !== "" : true;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending || !ready) return;
    setPending(true);
    setError("");
    try {
      const answer = await call(kind, user, value.trim());
      userToolDone(doneText(kind, user, answer));
    } catch (err) {
      setError(errorMessage(err));
      setPending(false);
    }
  };

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      {needsValue ? (
        <Field id={id} label={text.typed ? `Type ${user.email} to confirm` : "New e-mail address"} error={error || undefined}>
          <Input
            id={id}
            type={kind === "email" ? "email" : "text"}
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            {...fieldAria(id, error || undefined)}
          />
        </Field>
      ) : (
        <LiveAlert tone="error">{error}</LiveAlert>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={closeUserTool}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant={text.danger ? "danger" : "primary"}
          disabled={!ready}
          pending={pending}
          pendingText={text.pendingText}
        >
          {text.button}
        </Button>
      </div>
    </form>
  );
}
