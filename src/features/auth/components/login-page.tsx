import { CheckCircle2 } from "lucide-react";
import { useEffect, useState } from "react";
import { CodeSignInForm } from "@/features/auth/components/code-sign-in-form";
import { ForgotPasswordForm } from "@/features/auth/components/forgot-password-form";
import { PasswordSignInForm } from "@/features/auth/components/password-sign-in-form";
import { safeNext } from "@/features/auth/safe-next";
import { Alert } from "@/components/ui/alert";
import { errorMessage } from "@/lib/api-error";
import { pb } from "@/lib/pocketbase";
import { refreshSession, startAuth } from "@/stores/auth";

const SELLING_POINTS = [
  "Residential and datacenter proxies in 100+ countries",
  "99.9% uptime with responses under 100ms",
  "Prepaid credits, no subscriptions, 24/7 support",
];

interface LoginPageProps {
  siteName: string;
  siteDescription: string;
}

/** /login (spec 2.10): welcome column, then password or e-mailed-code sign-in. */
export function LoginPage({ siteName, siteDescription }: LoginPageProps) {
  const [mode, setMode] = useState<"password" | "code" | "reset">("password");
  const [verifyNotice, setVerifyNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  useEffect(() => {
    startAuth();
    // Links in verification mails land here as /login?verify=TOKEN.
    const token = new URLSearchParams(window.location.search).get("verify");
    if (token) {
      pb()
        .collection("users")
        .confirmVerification(token)
        .then(() => {
          setVerifyNotice({ tone: "success", text: "Your email address is verified." });
          // A signed-in visitor's session now carries verified = true (buying needs it).
          return refreshSession().catch(() => {});
        })
        .catch((err: unknown) => setVerifyNotice({ tone: "error", text: errorMessage(err) }));
    }
  }, []);

  const onSignedIn = () => {
    window.location.replace(safeNext(new URLSearchParams(window.location.search).get("next")));
  };

  return (
    <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 lg:grid-cols-2 lg:items-center">
      <section className="space-y-6">
        <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Welcome to {siteName}</h1>
        <p className="text-lg text-slate-600">{siteDescription}</p>
        <ul className="space-y-3">
          {SELLING_POINTS.map((point) => (
            <li key={point} className="flex items-start gap-3 text-slate-700">
              <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              {point}
            </li>
          ))}
        </ul>
      </section>
      <section className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm" aria-labelledby="signin-heading">
        <h2 id="signin-heading" className="text-2xl font-bold text-slate-900">
          Sign in to your account
        </h2>
        <p className="mt-2 mb-6 text-sm text-slate-600">
          Or{" "}
          <a href="/signup" className="font-medium text-primary hover:underline">
            create a new account
          </a>
        </p>
        <div aria-live="polite" className="mb-4 empty:hidden">
          {verifyNotice ? <Alert tone={verifyNotice.tone}>{verifyNotice.text}</Alert> : null}
        </div>
        {mode === "password" ? (
          <PasswordSignInForm onSignedIn={onSignedIn} onForgotPassword={() => setMode("reset")} />
        ) : mode === "code" ? (
          <CodeSignInForm onSignedIn={onSignedIn} />
        ) : (
          <ForgotPasswordForm />
        )}
        <div className="mt-6 border-t border-slate-200 pt-4 text-center text-sm">
          {mode === "password" ? (
            <button type="button" className="text-primary hover:underline" onClick={() => setMode("code")}>
              No password yet? Email me a sign-in code
            </button>
          ) : (
            <button type="button" className="text-primary hover:underline" onClick={() => setMode("password")}>
              Sign in with a password instead
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
