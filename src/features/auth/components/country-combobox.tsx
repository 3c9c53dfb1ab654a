import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions } from "@headlessui/react";
import { Check, ChevronDown } from "lucide-react";
import { useMemo, useState } from "react";
import { COUNTRIES } from "@/features/auth/countries";
import { cn } from "@/lib/cn";

interface CountryComboboxProps {
  id: string;
  value: string;
  onChange: (country: string) => void;
  onBlur?: () => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  disabled?: boolean;
}

/**
 * Searchable country picker: typing filters case-insensitively, the list scrolls
 * (max 15rem), keyboard and mouse both work, it closes on an outside click, and only an
 * entry from the list can fill it (free text is dropped when the list closes).
 */
export function CountryCombobox({ id, value, onChange, onBlur, invalid, describedBy, disabled }: CountryComboboxProps) {
  const [query, setQuery] = useState("");
  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? COUNTRIES.filter((c) => c.toLowerCase().includes(q)) : COUNTRIES;
  }, [query]);

  return (
    <Combobox
      value={value || null}
      onChange={(country: string | null) => onChange(country ?? "")}
      onClose={() => {
        setQuery("");
        onBlur?.();
      }}
      disabled={disabled ?? false}
      immediate
    >
      <div className="relative">
        <ComboboxInput
          id={id}
          name="country"
          autoComplete="off"
          placeholder="Search for your country"
          aria-invalid={invalid ?? false}
          aria-describedby={describedBy}
          displayValue={(country: string | null) => country ?? ""}
          onChange={(event) => setQuery(event.target.value)}
          className={cn(
            "block h-10 w-full rounded-md border border-slate-300 bg-white pr-9 pl-3 text-sm text-slate-900 placeholder:text-slate-400",
            "focus:border-primary focus:ring-2 focus:ring-primary/30 focus:outline-none aria-[invalid=true]:border-red-500",
          )}
        />
        <ComboboxButton className="absolute inset-y-0 right-0 flex items-center px-2 text-slate-500" aria-label="Show countries">
          <ChevronDown className="size-4" aria-hidden="true" />
        </ComboboxButton>
        <ComboboxOptions
          modal={false}
          className="absolute z-20 mt-1 max-h-60 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg empty:invisible"
        >
          {filtered.length === 0 ? (
            <div className="px-3 py-2 text-slate-500" role="status">
              No countries found
            </div>
          ) : (
            filtered.map((country) => (
              <ComboboxOption
                key={country}
                value={country}
                className="group flex cursor-pointer items-center gap-2 px-3 py-2 text-slate-900 select-none data-focus:bg-primary/10"
              >
                <Check className="invisible size-4 text-primary group-data-selected:visible" aria-hidden="true" />
                <span>{country}</span>
              </ComboboxOption>
            ))
          )}
        </ComboboxOptions>
      </div>
    </Combobox>
  );
}
