import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useMailRequest } from "@/lib/use-mail-request";
import { requestPasswordLink } from "@/stores/auth";

/** For accounts with no password of their own yet: mail a link to /reset-password. */
export function SetPasswordByEmail({ email }: { email: string }) {
  const { state, error, request: send } = useMailRequest(() => requestPasswordLink(email));

  return (
    <div className="max-w-md space-y-4">
      <p className="text-sm text-slate-600">
        Your account has no password yet: you sign in with a code we email you. To sign in with a password as well, we'll email you a link
        to set one.
      </p>
      <div aria-live="polite">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {state === "sent" ? (
          <Alert tone="success">We sent a link to set your password to {email}. It is valid for 30 minutes.</Alert>
        ) : null}
      </div>
      <Button onClick={send} pending={state === "sending"}>
        Email me a link to set a password
      </Button>
    </div>
  );
}
