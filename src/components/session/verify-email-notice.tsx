import { MailWarning, X } from "lucide-react";
import { useEffect } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useMailRequest } from "@/lib/use-mail-request";
import { refreshSession, requestVerificationMail } from "@/stores/auth";

interface VerifyEmailNoticeProps {
  email: string;
  /**
   * The dashboard's banner: the welcome credit verifying brings ("$5"; null when the shop
   * gives none, and the banner names no credit). Left out on the buy forms.
   */
  credit?: string | null | undefined;
  /** Shows a Dismiss button (the banner; the caller remembers the dismissal). */
  onDismiss?: (() => void) | undefined;
}

/**
 * Shown instead of the buy forms until the account's e-mail is verified (the server
 * refuses purchases too), and as the dashboard's banner until then. Offers a new link,
 * and notices a verification done in another tab when this one gets the focus back.
 */
export function VerifyEmailNotice({ email, credit, onDismiss }: VerifyEmailNoticeProps) {
  const { state, error, request: resend } = useMailRequest(() => requestVerificationMail(email));

  useEffect(() => {
    const onFocus = () => void refreshSession().catch(() => {});
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, []);

  return (
    <div className="rounded-xl border border-amber-200 bg-amber-50 p-5" data-testid="verify-email-notice">
      <div className="flex items-start gap-3">
        <MailWarning className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
        <div className="min-w-0 flex-1 space-y-3">
          <p className="font-semibold text-amber-900">
            {credit === undefined
              ? "Please verify your email address"
              : credit
                ? `Verify your e-mail to receive ${credit} in credits`
                : "Verify your e-mail address"}
          </p>
          <p className="text-sm text-amber-900">
            To buy credits and proxies, confirm that {email} is yours: open the link we emailed you when you signed up.
          </p>
          <div aria-live="polite">
            {error ? <Alert tone="error">{error}</Alert> : null}
            {state === "sent" ? <Alert tone="success">We sent a new verification link to {email}.</Alert> : null}
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" size="sm" onClick={() => void resend()} pending={state === "sending"} pendingText="Sending...">
              Resend verification email
            </Button>
            <Button variant="ghost" size="sm" onClick={() => void refreshSession().catch(() => {})}>
              I have verified it
            </Button>
          </div>
        </div>
        {onDismiss ? (
          <Button variant="ghost" size="sm" onClick={onDismiss} aria-label="Dismiss" className="shrink-0">
            <X className="size-4" aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
