// /signup's script (no React): validates with SignUpSchema, runs the country picker, and
// creates the account through the contract's signUp (POST /api/shop/signup), then lands on
// /dashboard signed in.
// Field messages from the server go under their fields, the rest in the banner.
import { cookieParse } from "pocketbase";
import { authErrorMessage } from "@/features/auth/auth-error";
import { enhanceCountryCombobox } from "@/features/auth/enhance/country-combobox";
import { byId, check, inputValue, onSubmit, setBanner, setFieldError, showMessages, submitButton, validate } from "@/lib/form-kit";
import { SignUpSchema } from "@/features/auth/schemas";
import { fieldErrors } from "@/lib/api-error";
import { REF_COOKIE } from "@/lib/cookies";
import { api } from "@/lib/api-client";
import { signUp } from "@/lib/api-contract/admin/shop";
import { adoptSession, startAuth } from "@/stores/auth";

/** The schema's keys and the ids of their controls. */
const FIELDS = { firstName: "firstName", lastName: "lastName", email: "email", country: "country" } as const;

/** The server's field names and the ids of their controls. */
const SERVER_FIELDS: Record<string, string> = { first_name: "firstName", last_name: "lastName", email: "email", country: "country" };

/** The affiliate code remembered from a ?ref= link (cookie set by the middleware), or the URL's own. */
function referralCode(): string {
  const fromUrl = new URLSearchParams(window.location.search).get("ref");
  if (fromUrl) return fromUrl;
  const cookies: Record<string, string | undefined> = cookieParse(document.cookie);
  return cookies[REF_COOKIE] ?? "";
}

export function enhanceSignUp(): void {
  startAuth();
  const form = byId<HTMLFormElement>("signup-form");
  const banner = byId("signup-error");
  const button = submitButton(form);
  const country = enhanceCountryCombobox(form.querySelector<HTMLElement>("[data-country-combobox]")!, () => {
    if (attempted) recheck();
  });
  const values = () => ({
    firstName: inputValue("firstName"),
    lastName: inputValue("lastName"),
    email: inputValue("email"),
    country: country.value(),
  });
  let attempted = false;
  /** After a first attempt, messages follow the edits (react-hook-form's default re-validation). */
  const recheck = () => showMessages(FIELDS, check(SignUpSchema, values()).messages);

  onSubmit(
    form,
    async () => {
      attempted = true;
      setBanner(banner, null);
      const data = validate(SignUpSchema, values(), FIELDS);
      if (!data) return;
      button.busy(true);
      try {
        const ref = referralCode();
        const body = { first_name: data.firstName, last_name: data.lastName, email: data.email, country: data.country };
        const session = await api.call(signUp, { body: { ...body, ...(ref ? { ref } : {}) } });
        await adoptSession(session.token, session.record);
        window.location.replace("/dashboard");
      } catch (err) {
        for (const [field, message] of Object.entries(fieldErrors(err))) {
          const id = SERVER_FIELDS[field];
          if (id) setFieldError(id, message.replace(/\.$/, ""));
        }
        setBanner(banner, { tone: "error", text: authErrorMessage(err) });
        button.busy(false);
      }
    },
    recheck,
  );
}
