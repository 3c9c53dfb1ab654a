import { useStore } from "@nanostores/react";
import { MailPlus, UserPlus } from "lucide-react";
import { useState, type SyntheticEvent } from "react";
import * as v from "valibot";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import type { CreatedInvitation, PendingInvitation } from "@/features/console-settings/api";
import { InvitationSchema } from "@/features/console-settings/schemas";
import { $invitations, createInvitationLink, reloadInvitations, revokeInvitationLink } from "@/features/console-settings/stores";

interface InvitationsPanelProps {
  /** The stored admin_registration_enabled: links can be made only while it is on. */
  registrationOpen: boolean;
  /** The form's (maybe unsaved) toggle. */
  registrationToggledOn: boolean;
  /** Demo mode: nothing can be created or revoked. */
  readOnly: boolean;
}

/** "Invite an administrator": make a single-use link, copy it, see and revoke pending ones. */
export function InvitationsPanel({ registrationOpen, registrationToggledOn, readOnly }: InvitationsPanelProps) {
  if (!registrationOpen) {
    return registrationToggledOn ? (
      <Alert tone="info">Save Settings to open admin registration, then invite administrators here.</Alert>
    ) : null;
  }
  return (
    <Card aria-labelledby="invite-title" className="space-y-6">
      <div>
        <h2 id="invite-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <UserPlus className="size-5" aria-hidden="true" /> Invite an administrator
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A link opens /console/register for one new administrator account. It works once, for 24 hours.
        </p>
      </div>
      <CreateInvitation readOnly={readOnly} />
      <PendingInvitations readOnly={readOnly} />
    </Card>
  );
}

function CreateInvitation({ readOnly }: { readOnly: boolean }) {
  const [email, setEmail] = useState("");
  const [emailError, setEmailError] = useState("");
  const [error, setError] = useState("");
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);

  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError("");
    const parsed = v.safeParse(InvitationSchema, { email });
    if (!parsed.success) {
      setEmailError(v.flatten<typeof InvitationSchema>(parsed.issues).nested?.email?.[0] ?? "");
      return;
    }
    setEmailError("");
    setPending(true);
    try {
      setCreated(await createInvitationLink(parsed.output.email));
      setEmail("");
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields["email"]) setEmailError(fields["email"].replace(/\.$/, ""));
      setError(errorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="space-y-4">
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-wrap items-start gap-3">
        <Field id="invite_email" label="Email (optional)" error={emailError} className="min-w-0 flex-1 basis-60">
          <Input
            id="invite_email"
            type="email"
            autoComplete="off"
            placeholder="new.admin@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={readOnly}
            aria-describedby={emailError ? "invite_email-error" : "invite_email-hint"}
            {...(emailError ? fieldAria("invite_email", emailError) : {})}
          />
          <p id="invite_email-hint" className="text-sm text-slate-600">
            When set, only this address can use the link.
          </p>
        </Field>
        <Button type="submit" className="sm:mt-6" disabled={readOnly} pending={pending} pendingText="Creating...">
          <MailPlus className="size-4" aria-hidden="true" /> Create invitation link
        </Button>
      </form>
      <div aria-live="polite">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {created && !error ? (
          <Alert tone="success" className="space-y-2">
            <p className="font-medium">Invitation link created. Copy it now: it is not shown again.</p>
            <div className="flex min-w-0 items-center gap-2">
              <label htmlFor="invite_link" className="sr-only">
                Invitation link
              </label>
              <Input
                id="invite_link"
                readOnly
                value={created.url}
                className="min-w-0 flex-1 font-mono text-xs"
                onFocus={(e) => e.target.select()}
              />
              <CopyButton value={created.url} label="Copy invitation link" className="shrink-0 bg-white" />
            </div>
            <p>
              Expires {formatDateTime(created.expires_at)}
              {created.email ? ` · only for ${created.email}` : " · anyone with the link"}
            </p>
          </Alert>
        ) : null}
      </div>
    </div>
  );
}

function PendingInvitations({ readOnly }: { readOnly: boolean }) {
  const state = useStore($invitations);
  const [revoking, setRevoking] = useState("");
  const [error, setError] = useState("");

  const revoke = async (invitation: PendingInvitation) => {
    setError("");
    setRevoking(invitation.id);
    try {
      await revokeInvitationLink(invitation.id);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setRevoking("");
    }
  };

  return (
    <section aria-labelledby="pending-invitations-title" className="space-y-3">
      <h3 id="pending-invitations-title" className="text-base font-semibold text-slate-900">
        Pending invitations{state.status === "ready" ? ` (${state.totalItems})` : ""}
      </h3>
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      {state.status === "error" ? (
        <LoadError message={state.error} onRetry={reloadInvitations} />
      ) : state.status === "loading" && state.items.length === 0 ? (
        <ul aria-label="Loading pending invitations" className="space-y-2">
          {[0, 1, 2].map((i) => (
            <li key={i}>
              <Skeleton className="h-14 w-full" />
            </li>
          ))}
        </ul>
      ) : state.items.length === 0 ? (
        <EmptyState title="No pending invitations" text="Links you create appear here until they are used, revoked or expire." />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-busy={state.status === "loading"}>
          {state.items.map((invitation) => {
            const who = invitation.email || "Anyone with the link";
            const by = invitation.created_by
              ? [invitation.created_by.first_name, invitation.created_by.last_name].filter(Boolean).join(" ") || invitation.created_by.email
              : "a removed administrator";
            return (
              <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="truncate text-sm font-medium text-slate-900">{who}</p>
                  <p className="text-xs text-slate-600">
                    Created by {by} · expires {formatDateTime(invitation.expires_at)}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={readOnly || (revoking !== "" && revoking !== invitation.id)}
                  pending={revoking === invitation.id}
                  pendingText="Revoking..."
                  aria-label={`Revoke the invitation for ${invitation.email || "anyone with the link"}, created ${formatDateTime(invitation.created)}`}
                  onClick={() => void revoke(invitation)}
                >
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
