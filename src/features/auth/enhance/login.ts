// /login's script (no React): sign-in with a password, with a code mailed to the
// address (two steps), or "forgot your password?" (a mailed link), and the ?verify=TOKEN
// links of verification mails. The password form is in the HTML; the other two are
// cloned from their <template>s when asked for, so only one form is ever on the page.
import { authErrorMessage } from "@/features/auth/auth-error";
import { byId, enhancePasswordToggle, inputValue, onSubmit, setBanner, setFieldError, submitButton, validate } from "@/lib/form-kit";
import { signInDestination } from "@/lib/safe-next";
import { SignInCodeRequestSchema, SignInCodeSchema, SignInSchema } from "@/features/auth/schemas";
import { errorMessage } from "@/lib/api-error";
import {
  $auth,
  confirmVerification as confirmVerificationLink,
  refreshSession,
  requestPasswordLink,
  requestSignInCode,
  signInWithCode,
  signInWithPassword,
  startAuth,
} from "@/stores/auth";

type Mode = "password" | "code" | "reset";

/** Leaves for ?next when it is safe (onboarding first for a new account), else /dashboard. */
const onSignedIn = (): void =>
  window.location.replace(signInDestination(new URLSearchParams(window.location.search).get("next"), $auth.get().user));

type Button = ReturnType<typeof submitButton>;

/**
 * Signs in with `attempt` and leaves for ?next; on a refusal, says why in the banner (the
 * message for `kind`'s credential) and frees the button (on success it stays busy).
 */
async function signInWith(button: Button, banner: HTMLElement, kind: "password" | "code", attempt: () => Promise<unknown>): Promise<void> {
  button.busy(true);
  try {
    await attempt();
    onSignedIn();
  } catch (err) {
    setBanner(banner, { tone: "error", text: authErrorMessage(err, kind) });
    button.busy(false);
  }
}

/**
 * Wires a form that mails something to the address typed in `emailId`: the address is
 * checked, then trimmed and lower-cased for `send`; the button is busy meanwhile and a
 * refusal goes in the banner.
 */
function onEmailSubmit(form: HTMLFormElement, banner: HTMLElement, emailId: string, send: (email: string) => Promise<void>): void {
  const button = submitButton(form);
  onSubmit(form, async () => {
    setBanner(banner, null);
    const data = validate(SignInCodeRequestSchema, { email: inputValue(emailId) }, { email: emailId });
    if (!data) return;
    button.busy(true);
    try {
      await send(data.email.trim().toLowerCase());
    } catch (err) {
      setBanner(banner, { tone: "error", text: authErrorMessage(err) });
    } finally {
      button.busy(false);
    }
  });
}

function fromTemplate(id: string): HTMLElement {
  const content = byId<HTMLTemplateElement>(id).content.cloneNode(true) as DocumentFragment;
  return content.firstElementChild as HTMLElement;
}

function wirePasswordForm(form: HTMLFormElement, toReset: () => void): void {
  const banner = byId("password-banner", form);
  const button = submitButton(form);
  enhancePasswordToggle(form);
  form.querySelector<HTMLButtonElement>("[data-forgot-password]")!.addEventListener("click", toReset);
  onSubmit(form, async () => {
    setBanner(banner, null);
    const data = validate(
      SignInSchema,
      { email: inputValue("email"), password: inputValue("password") },
      { email: "email", password: "password" },
    );
    if (data) await signInWith(button, banner, "password", () => signInWithPassword(data.email, data.password));
  });
}

/** Puts the address typed in one mode's e-mail field into the next mode's. */
function carryEmail(from: HTMLInputElement | null, to: HTMLInputElement | null): void {
  if (from && to && from !== to) to.value = from.value;
}

function codeView(): HTMLElement {
  const view = fromTemplate("code-template");
  const banner = byId("code-banner", view);
  const requestForm = byId<HTMLFormElement>("code-request-form", view);
  const codeForm = byId<HTMLFormElement>("code-form", view);
  const codeButton = submitButton(codeForm);
  let sent: { email: string; otpId: string } | null = null;

  onEmailSubmit(requestForm, banner, "code-email", async (email) => {
    sent = { email, otpId: await requestSignInCode(email) };
    setBanner(banner, { tone: "info", text: `If an account exists for ${email}, we have emailed it a 6-digit sign-in code.` });
    requestForm.hidden = true;
    codeForm.hidden = false;
    byId("code").focus();
  });

  onSubmit(codeForm, async () => {
    if (!sent) return;
    const { otpId } = sent;
    const data = validate(SignInCodeSchema, { code: inputValue("code") }, { code: "code" });
    if (data) await signInWith(codeButton, banner, "code", () => signInWithCode(otpId, data.code));
  });

  codeForm.querySelector<HTMLButtonElement>("[data-code-restart]")!.addEventListener("click", () => {
    sent = null;
    setBanner(banner, null);
    codeForm.reset();
    setFieldError("code", undefined);
    codeForm.hidden = true;
    requestForm.hidden = false;
    byId("code-email").focus();
  });
  return view;
}

function resetView(): HTMLElement {
  const form = fromTemplate("reset-template") as HTMLFormElement;
  const banner = byId("reset-banner", form);
  onEmailSubmit(form, banner, "reset-email", async (address) => {
    await requestPasswordLink(address);
    setBanner(banner, {
      tone: "success",
      text: `If an account exists for ${address}, we have emailed it a link to set a new password. It is valid for 30 minutes.`,
    });
  });
  return form;
}

/** Confirms a ?verify=TOKEN from a verification mail and says how it went. */
function confirmVerification(notice: HTMLElement): void {
  const token = new URLSearchParams(window.location.search).get("verify");
  if (!token) return;
  confirmVerificationLink(token)
    .then((outcome) => {
      if (outcome === "signed-in") {
        setBanner(notice, { tone: "success", text: "Your email address is verified. You are signed in; taking you to your dashboard..." });
        onSignedIn();
        return;
      }
      setBanner(notice, { tone: "success", text: "Your email address is verified." });
      // A signed-in visitor's session now carries verified = true (buying needs it); the
      // browser that signed up is signed in already, so it goes on to the dashboard
      // instead of a sign-in form it does not need (issue #28).
      return refreshSession()
        .catch(() => {})
        .then(() => {
          if (!$auth.get().user) return;
          setBanner(notice, { tone: "success", text: "Your email address is verified. You're signed in; taking you to your dashboard..." });
          onSignedIn();
        });
    })
    .catch((err: unknown) => setBanner(notice, { tone: "error", text: errorMessage(err) }));
}

export function enhanceLogin(): void {
  startAuth();
  confirmVerification(byId("verify-notice"));
  const view = byId("signin-view");
  const passwordForm = byId<HTMLFormElement>("password-form");
  const modeSwitch = byId<HTMLButtonElement>("signin-mode-switch");
  let mode: Mode = "password";

  const show = (next: Mode): void => {
    mode = next;
    // The password form is kept (with what was typed); the others start afresh each time,
    // with the e-mail address already typed.
    const typed = view.querySelector<HTMLInputElement>("input[type=email]");
    view.replaceChildren(next === "password" ? passwordForm : next === "code" ? codeView() : resetView());
    carryEmail(typed, view.querySelector<HTMLInputElement>("input[type=email]"));
    modeSwitch.textContent = next === "password" ? "No password yet? Email me a sign-in code" : "Sign in with a password instead";
  };

  wirePasswordForm(passwordForm, () => show("reset"));
  modeSwitch.addEventListener("click", () => show(mode === "password" ? "code" : "password"));
}
