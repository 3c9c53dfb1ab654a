// The small toolkit behind the server-rendered forms of /login, /signup and /contact
// (no React): the pages render their fields with src/components/form/*.astro, and these
// helpers validate with the pages' valibot schemas, show each field's message under it,
// announce banners in live regions, and run a busy submit button, on that markup.
import * as v from "valibot";

const TONES = {
  error: "border-red-200 bg-red-50 text-red-800",
  success: "border-green-200 bg-green-50 text-green-800",
  info: "border-blue-200 bg-blue-50 text-blue-800",
} as const;
export type Tone = keyof typeof TONES;

/** A required element of the page; a missing one is a bug in the markup, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string, root: Document | DocumentFragment | HTMLElement = document): T {
  const el = root instanceof HTMLElement ? root.querySelector<T>(`#${CSS.escape(id)}`) : root.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el as T;
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The current value of an input, textarea or select. */
export function inputValue(id: string): string {
  return byId<Control>(id).value;
}

/** The values of several controls (`ids` maps a schema key to its control's id), keyed by schema key. */
export function inputValues<K extends string>(ids: Readonly<Record<K, string>>): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of Object.keys(ids) as K[]) out[key] = inputValue(ids[key]);
  return out;
}

/** Shows (or clears) the message under a field and ties it to the control (aria-invalid, aria-describedby). */
export function setFieldError(id: string, message: string | undefined): void {
  const control = byId(id);
  const note = byId(`${id}-error`);
  note.textContent = message ?? "";
  note.hidden = !message;
  control.setAttribute("aria-invalid", message ? "true" : "false");
  if (message) control.setAttribute("aria-describedby", `${id}-error`);
  else control.removeAttribute("aria-describedby");
}

/** Each schema key's first message for `data` (none when valid), and the parsed output when valid. */
export function check<S extends v.GenericSchema>(
  schema: S,
  data: Record<string, string>,
): { output: v.InferOutput<S> | null; messages: Partial<Record<string, string>> } {
  const result = v.safeParse(schema, data);
  if (result.success) return { output: result.output, messages: {} };
  const nested = v.flatten(result.issues).nested ?? {};
  const messages: Partial<Record<string, string>> = {};
  for (const [key, list] of Object.entries(nested)) if (list?.[0]) messages[key] = list[0];
  return { output: null, messages };
}

/** Shows each field's message (`ids` maps a schema key to its control's id); returns the id of the first field in error. */
export function showMessages(ids: Readonly<Record<string, string>>, messages: Partial<Record<string, string>>): string | null {
  let first: string | null = null;
  for (const [key, id] of Object.entries(ids)) {
    setFieldError(id, messages[key]);
    if (messages[key] && !first) first = id;
  }
  return first;
}

/** Validates on submit: shows every field's message and focuses the first field in error. Returns the parsed output or null. */
export function validate<S extends v.GenericSchema>(
  schema: S,
  data: Record<string, string>,
  ids: Readonly<Record<string, string>>,
): v.InferOutput<S> | null {
  const { output, messages } = check(schema, data);
  const first = showMessages(ids, messages);
  if (first) byId(first).focus();
  return output;
}

/** Puts one banner (an alert for errors, a status otherwise) in a live region, or empties it. */
export function setBanner(region: HTMLElement, banner: { tone: Tone; text: string } | null): void {
  region.replaceChildren();
  // A form names its error banner as its description while one is shown.
  const form = region.closest("form");
  if (form && region.id) {
    if (banner?.tone === "error") form.setAttribute("aria-describedby", region.id);
    else form.removeAttribute("aria-describedby");
  }
  if (!banner) return;
  const box = document.createElement("div");
  box.setAttribute("role", banner.tone === "error" ? "alert" : "status");
  box.className = `rounded-md border px-4 py-3 text-sm ${TONES[banner.tone]}`;
  box.textContent = banner.text;
  region.append(box);
}

/**
 * A form's submit button, rendered by SubmitButton.astro: disabled in the HTML until the
 * page's script runs (an early click can never fall back to a native submit), then enabled;
 * while busy, disabled with a spinner and its busy text.
 */
export function submitButton(form: HTMLFormElement): { element: HTMLButtonElement; busy(on: boolean): void } {
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const label = button.querySelector<HTMLElement>("[data-label]")!;
  const spinner = button.querySelector<SVGElement>("[data-spinner]")!;
  const idle = label.textContent ?? "";
  const busyText = button.dataset["pendingText"] ?? idle;
  button.disabled = false;
  return {
    element: button,
    busy(on) {
      button.disabled = on;
      label.textContent = on ? busyText : idle;
      spinner.classList.toggle("hidden", !on);
    },
  };
}

/**
 * Wires a form: native validation off, one submission at a time, and after the first
 * attempt every edit re-validates (`recheck`), as react-hook-form's default mode did,
 * until the form is reset (`form.reset()` starts it afresh, as react-hook-form's reset).
 */
export function onSubmit(form: HTMLFormElement, handler: () => Promise<void>, recheck?: () => void): void {
  let running = false;
  let attempted = false;
  form.noValidate = true;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (running) return;
    attempted = true;
    running = true;
    // Handlers show their own failures; this only ends the busy state.
    void handler().finally(() => {
      running = false;
    });
  });
  form.addEventListener("reset", () => {
    attempted = false;
  });
  if (recheck) form.addEventListener("input", () => attempted && recheck());
}

/** The show/hide toggle of PasswordField.astro. */
export function enhancePasswordToggle(root: ParentNode): void {
  for (const toggle of root.querySelectorAll<HTMLButtonElement>("button[data-password-toggle]")) {
    const input = byId<HTMLInputElement>(toggle.dataset["passwordToggle"]!);
    const [show, hide] = toggle.querySelectorAll("svg");
    toggle.addEventListener("click", () => {
      const visible = input.type === "password";
      input.type = visible ? "text" : "password";
      toggle.setAttribute("aria-label", visible ? "Hide password" : "Show password");
      toggle.setAttribute("aria-pressed", String(visible));
      show?.classList.toggle("hidden", visible);
      hide?.classList.toggle("hidden", !visible);
    });
  }
}
