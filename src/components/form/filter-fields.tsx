// The controls of a list's filter bar (role="search"): the search box and the selects
// that narrow the list, each labelled.
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";

export function SearchField({
  id,
  placeholder,
  value,
  onSearch,
}: {
  id: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
}) {
  return (
    <Field id={id} label="Search">
      <Input id={id} type="search" placeholder={placeholder} value={value} onChange={(e) => onSearch(e.target.value)} autoComplete="off" />
    </Field>
  );
}

interface FilterSelectProps<Value extends string> {
  id: string;
  label: string;
  value: Value | "";
  /** The first option's text, for no filter: "All types". */
  anyLabel: string;
  options: ReadonlyArray<{ value: Value; label: string }>;
  /** Called with an option's value, or "" for no filter. */
  onChange: (value: Value | "") => void;
}

export function FilterSelect<Value extends string>({ id, label, value, anyLabel, options, onChange }: FilterSelectProps<Value>) {
  return (
    <Field id={id} label={label}>
      <Select id={id} value={value} onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? "")}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
