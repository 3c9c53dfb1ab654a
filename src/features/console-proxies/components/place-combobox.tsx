import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from "@headlessui/react";
import { Check, ChevronDown, X } from "lucide-react";
import { useMemo, useState } from "react";
import { cn } from "@/lib/cn";

export interface PlaceOption {
  value: string;
  label: string;
}

interface PlaceComboboxProps {
  id: string;
  /** Names the list button and the empty result ("countries", "states", "cities"). */
  noun: string;
  options: readonly PlaceOption[];
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
  /** Offer a button that clears the choice (optional fields). */
  clearable?: boolean;
}

/**
 * A searchable picker over a fixed list (Headless UI Combobox): typing filters
 * case-insensitively, only an entry of the list can fill it, keyboard and mouse both work.
 */
export function PlaceCombobox({
  id,
  noun,
  options,
  value,
  onChange,
  placeholder,
  disabled = false,
  invalid = false,
  describedBy,
  clearable = false,
}: PlaceComboboxProps) {
  const [query, setQuery] = useState("");
  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? options.filter((o) => o.label.toLowerCase().includes(q)) : options;
  }, [options, query]);
  const labelOf = (v: string | null) => options.find((o) => o.value === v)?.label ?? v ?? "";

  return (
    <Combobox
      value={value || null}
      onChange={(v: string | null) => onChange(v ?? "")}
      onClose={() => setQuery("")}
      disabled={disabled}
      immediate
    >
      <div className="relative">
        <ComboboxInput
          id={id}
          autoComplete="off"
          placeholder={placeholder}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          displayValue={labelOf}
          onChange={(event) => setQuery(event.target.value)}
          className={cn(
            "block h-10 w-full rounded-md border border-slate-300 bg-white pr-16 pl-3 text-sm text-slate-900 placeholder:text-slate-500",
            "focus:border-primary focus:ring-2 focus:ring-primary/30 focus:outline-none aria-[invalid=true]:border-red-500",
            "disabled:cursor-not-allowed disabled:bg-slate-100",
          )}
        />
        <div className="absolute inset-y-0 right-0 flex items-center">
          {clearable && value && !disabled ? (
            <button
              type="button"
              className="px-1 text-slate-500 hover:text-slate-800"
              aria-label={`Clear ${noun}`}
              onClick={() => onChange("")}
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          ) : null}
          <ComboboxButton className="px-2 text-slate-500 disabled:cursor-not-allowed" aria-label={`Show ${noun}`}>
            <ChevronDown className="size-4" aria-hidden="true" />
          </ComboboxButton>
        </div>
        <ComboboxOptions
          modal={false}
          className="absolute z-20 mt-1 max-h-60 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          {filtered.length === 0 ? (
            <div className="px-3 py-2 text-slate-500" role="status">
              No {noun} found
            </div>
          ) : (
            filtered.map((option) => (
              <ComboboxOption
                key={option.value}
                value={option.value}
                className="group flex cursor-pointer items-center gap-2 px-3 py-2 text-slate-900 select-none data-focus:bg-primary/10"
              >
                <Check className="invisible size-4 text-primary group-data-selected:visible" aria-hidden="true" />
                <span>{option.label}</span>
              </ComboboxOption>
            ))
          )}
        </ComboboxOptions>
      </div>
    </Combobox>
  );
}
