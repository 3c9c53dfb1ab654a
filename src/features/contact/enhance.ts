// /contact's script (no React, no PocketBase SDK): validates with ContactMessageSchema on
// submit (then on every edit, until the form is sent or reset), sends the message with
// one fetch (api.ts), and then swaps the form for "Message Sent!" in a live region, with
// the heading focused. A refusal (the rate limiter's 429 included) shows the server's
// message in the banner, its field messages under their fields, and keeps the input.
import { sendContactMessage } from "@/features/contact/api";
import { CONTACT_FIELD_IDS as FIELDS, ContactMessageSchema, contactTypeFrom } from "@/features/contact/schemas";
import { byId, check, inputValues, onSubmit, setBanner, setFieldError, showMessages, submitButton, validate } from "@/lib/form-kit";

export function enhanceContactForm(): void {
  const form = byId<HTMLFormElement>("contact-message-form");
  const banner = byId("contact-banner");
  const result = byId("contact-result");
  const template = byId<HTMLTemplateElement>("contact-sent-template");
  const button = submitButton(form);

  // A link like /contact?type=partnership preselects the topic (unless one was chosen already).
  const topic = byId<HTMLSelectElement>(FIELDS.type);
  const preset = contactTypeFrom(new URLSearchParams(window.location.search).get("type"));
  if (preset && topic.selectedOptions[0]?.defaultSelected) topic.value = preset;

  const values = () => inputValues(FIELDS);

  function showSent(): void {
    const screen = (template.content.cloneNode(true) as DocumentFragment).firstElementChild as HTMLElement;
    screen.querySelector<HTMLButtonElement>("[data-send-another]")!.addEventListener("click", () => {
      result.replaceChildren();
      form.hidden = false;
      byId(FIELDS.name).focus();
    });
    form.hidden = true;
    result.replaceChildren(screen);
    screen.querySelector<HTMLElement>("[data-sent-heading]")!.focus();
  }

  onSubmit(
    form,
    async () => {
      setBanner(banner, null);
      const data = validate(ContactMessageSchema, values(), FIELDS);
      if (!data) return;
      button.busy(true);
      const outcome = await sendContactMessage(data);
      button.busy(false);
      if (outcome.ok) {
        form.reset();
        showMessages(FIELDS, {});
        showSent();
        return;
      }
      let firstInError: string | null = null;
      for (const [key, id] of Object.entries(FIELDS)) {
        const message = outcome.fields[key];
        if (!message) continue;
        setFieldError(id, message.replace(/\.$/, ""));
        firstInError ??= id;
      }
      setBanner(banner, { tone: "error", text: outcome.message });
      // The busy button lost focus when it was disabled: give it back (or to the field in error).
      if (firstInError) byId(firstInError).focus();
      else if (document.activeElement === document.body || document.activeElement === null) button.element.focus();
    },
    () => showMessages(FIELDS, check(ContactMessageSchema, values()).messages),
  );
}
