import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

interface SearchFieldProps {
  id: string;
  label?: string;
  placeholder: string;
  value: string;
  onSearch: (text: string) => void;
  className?: string;
}

/** A list's search box: labelled, type=search, no autofill (the list's store debounces it). */
export function SearchField({ id, label = "Search", placeholder, value, onSearch, className }: SearchFieldProps) {
  return (
    <Field id={id} label={label} {...(className ? { className } : {})}>
      <Input id={id} type="search" placeholder={placeholder} value={value} onChange={(e) => onSearch(e.target.value)} autoComplete="off" />
    </Field>
  );
}
