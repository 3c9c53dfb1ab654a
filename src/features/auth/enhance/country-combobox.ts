// The searchable country picker of /signup without React: an ARIA 1.2 combobox (an
// input with a listbox popup, aria-activedescendant). Typing filters case-insensitively,
// the list scrolls (max 15rem), arrows move, Enter or a click picks, Escape or an outside
// click closes, and only an entry from the list can fill it: free text is dropped when
// the list closes.
import { COUNTRIES } from "@/features/auth/countries";

const OPTION_CLASS = "flex cursor-pointer items-center gap-2 px-3 py-2 text-slate-900 select-none";
const ACTIVE_CLASS = "bg-primary/10";
const CHECK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-4 text-primary" aria-hidden="true"><path d="M20 6 9 17l-5-5"/></svg>';

export interface CountryCombobox {
  /** The picked country ("" when none). */
  value(): string;
}

export function enhanceCountryCombobox(root: HTMLElement, onPick: () => void): CountryCombobox {
  const input = root.querySelector<HTMLInputElement>("input[role=combobox]")!;
  const listbox = root.querySelector<HTMLUListElement>("[role=listbox]")!;
  const empty = root.querySelector<HTMLElement>("[data-combobox-empty]")!;
  const toggle = root.querySelector<HTMLButtonElement>("[data-combobox-toggle]")!;
  let selected = COUNTRIES.includes(input.value) ? input.value : "";
  let shown: readonly string[] = [];
  let active = -1;
  let open = false;

  const optionId = (i: number) => `${listbox.id}-${i}`;

  function render(query: string): void {
    const q = query.trim().toLowerCase();
    shown = q ? COUNTRIES.filter((c) => c.toLowerCase().includes(q)) : COUNTRIES;
    active = -1;
    input.removeAttribute("aria-activedescendant");
    listbox.replaceChildren(
      ...shown.map((country, i) => {
        const li = document.createElement("li");
        li.id = optionId(i);
        li.setAttribute("role", "option");
        li.setAttribute("aria-selected", String(country === selected));
        li.className = OPTION_CLASS;
        li.dataset["value"] = country;
        li.innerHTML = CHECK_SVG;
        if (country !== selected) li.firstElementChild!.classList.add("invisible");
        const label = document.createElement("span");
        label.textContent = country;
        li.append(label);
        return li;
      }),
    );
    listbox.hidden = !open || shown.length === 0;
    empty.hidden = !open || shown.length > 0;
  }

  function setActive(i: number): void {
    listbox.children[active]?.classList.remove(ACTIVE_CLASS);
    active = i;
    const li = listbox.children[i];
    if (!li) {
      input.removeAttribute("aria-activedescendant");
      return;
    }
    li.classList.add(ACTIVE_CLASS);
    input.setAttribute("aria-activedescendant", li.id);
    li.scrollIntoView({ block: "nearest" });
  }

  function show(): void {
    if (open) return;
    open = true;
    input.setAttribute("aria-expanded", "true");
    render(input.value === selected ? "" : input.value);
  }

  /** Closes the list; whatever was typed gives way to the picked country. */
  function close(): void {
    open = false;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    listbox.hidden = true;
    empty.hidden = true;
    active = -1;
    input.value = selected;
  }

  function pick(country: string): void {
    selected = country;
    close();
    onPick();
  }

  input.addEventListener("focus", show);
  input.addEventListener("click", show);
  input.addEventListener("input", () => {
    if (!open) {
      open = true;
      input.setAttribute("aria-expanded", "true");
    }
    render(input.value);
  });
  input.addEventListener("keydown", (event) => {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) show();
        else if (shown.length) setActive(Math.min(active + 1, shown.length - 1));
        break;
      case "ArrowUp":
        event.preventDefault();
        if (!open) show();
        else if (shown.length) setActive(active <= 0 ? 0 : active - 1);
        break;
      case "Home":
      case "End":
        if (open && shown.length) {
          event.preventDefault();
          setActive(event.key === "Home" ? 0 : shown.length - 1);
        }
        break;
      case "Enter":
        if (open && active >= 0) {
          event.preventDefault();
          pick(shown[active]!);
        }
        break;
      case "Escape":
        if (open) {
          event.preventDefault();
          close();
        }
        break;
      case "Tab":
        if (open) close();
        break;
    }
  });
  input.addEventListener("blur", () => {
    if (open) close();
  });
  // Clicking an option must not blur the input first (that would close the list).
  listbox.addEventListener("mousedown", (event) => event.preventDefault());
  listbox.addEventListener("click", (event) => {
    const li = (event.target as Element).closest<HTMLElement>("[role=option]");
    if (li?.dataset["value"]) pick(li.dataset["value"]);
  });
  listbox.addEventListener("mousemove", (event) => {
    const li = (event.target as Element).closest<HTMLElement>("[role=option]");
    if (li) setActive([...listbox.children].indexOf(li));
  });
  toggle.addEventListener("mousedown", (event) => event.preventDefault());
  toggle.addEventListener("click", () => {
    if (open) close();
    else {
      input.focus();
      show();
    }
  });

  return { value: () => selected };
}
