// A select of a list's filter bar (role="search", beside ui/search-field): "All ..." or
// one of its options, labelled.
import { Field } from "@/components/ui/field";
import { Options, type Option } from "@/components/ui/options";
import { Select } from "@/components/ui/select";

interface FilterSelectProps<Value extends string> {
  id: string;
  label: string;
  value: Value | "";
  /** The first option's text, for no filter: "All types". */
  anyLabel: string;
  options: readonly Option<Value>[];
  /** Called with an option's value, or "" for no filter. */
  onChange: (value: Value | "") => void;
}

export function FilterSelect<Value extends string>({ id, label, value, anyLabel, options, onChange }: FilterSelectProps<Value>) {
  return (
    <Field id={id} label={label}>
      <Select id={id} value={value} onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? "")}>
        <option value="">{anyLabel}</option>
        <Options options={options} />
      </Select>
    </Field>
  );
}
