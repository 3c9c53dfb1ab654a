import { useStore } from "@nanostores/react";
import { MailPlus, UserPlus } from "lucide-react";
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, fieldAria } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PagedListState } from "@/components/ui/list-state";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { formatDateTime } from "@/lib/dates";
import type { CreatedInvitation, PendingInvitation } from "@/features/console-settings/api";
import { InvitationSchema, type InvitationInput, type InvitationOutput } from "@/features/console-settings/schemas";
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
  const {
    register,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<InvitationInput, unknown, InvitationOutput>({
    resolver: valibotResolver(InvitationSchema),
    defaultValues: { email: "" },
  });
  const [error, setError] = useState("");
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const emailError = errors.email?.message;

  const submit = async ({ email }: InvitationOutput) => {
    setError("");
    try {
      setCreated(await createInvitationLink(email));
      reset();
    } catch (err) {
      const fields = fieldErrors(err);
      if (fields["email"]) setFieldError("email", { message: fields["email"].replace(/\.$/, "") });
      setError(errorMessage(err));
    }
  };

  return (
    <div className="space-y-4">
      <form
        onSubmit={(event) => {
          setError("");
          void handleSubmit(submit)(event);
        }}
        noValidate
        className="flex flex-wrap items-start gap-3"
      >
        <Field
          id="invite_email"
          label="Email (optional)"
          hint="When set, only this address can use the link."
          error={emailError}
          className="min-w-0 flex-1 basis-60"
        >
          <Input
            id="invite_email"
            type="email"
            autoComplete="off"
            placeholder="new.admin@example.com"
            disabled={readOnly}
            {...fieldAria("invite_email", emailError, { hint: true })}
            {...register("email")}
          />
        </Field>
        <Button type="submit" className="sm:mt-6" disabled={readOnly} pending={isSubmitting} pendingText="Creating...">
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

const NO_INVITATIONS = (
  <EmptyState title="No pending invitations" text="Links you create appear here until they are used, revoked or expire." />
);

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
      <PagedListState list={state} onRetry={reloadInvitations} loadingLabel="Loading pending invitations" empty={NO_INVITATIONS} compact>
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
      </PagedListState>
    </section>
  );
}
