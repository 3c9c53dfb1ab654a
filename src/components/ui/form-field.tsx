// A react-hook-form field in one element: the Field's label, hint and error, and the props its
// control needs (id, register, aria-invalid and aria-describedby), instead of restating the
// field's name four times in every form.
import type { ReactNode } from "react";
import { get, useFormState, type FieldValues, type Path, type UseFormRegister, type UseFormReturn } from "react-hook-form";
import { Field, fieldAria } from "@/components/ui/field";
import { Options, type OptionLabels } from "@/components/ui/options";
import { Select } from "@/components/ui/select";

/** What the control inside a FormField spreads onto itself. */
export type FieldControlProps = ReturnType<UseFormRegister<FieldValues>> & ReturnType<typeof fieldAria> & { id: string };

interface FormFieldProps<T extends FieldValues, C, O extends FieldValues> {
  /** The form (useForm's return, or useFormContext's): only register and control are read. */
  form: Pick<UseFormReturn<T, C, O>, "register" | "control">;
  name: Path<T>;
  /** The control's id when it is not the field's name. */
  id?: string;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: (field: FieldControlProps) => ReactNode;
}

export function FormField<T extends FieldValues, C, O extends FieldValues>({
  form,
  name,
  id = name,
  label,
  hint,
  className,
  children,
}: FormFieldProps<T, C, O>) {
  const { errors } = useFormState({ control: form.control, name });
  const error = get<typeof errors, { message?: string } | undefined>(errors, name)?.message;
  return (
    <Field id={id} label={label} error={error} hint={hint} className={className}>
      {children({ id, ...form.register(name), ...fieldAria(id, error, { hint: Boolean(hint) }) })}
    </Field>
  );
}

interface SelectFormFieldProps<T extends FieldValues, C, O extends FieldValues, Value extends string> extends Omit<
  FormFieldProps<T, C, O>,
  "children"
> {
  /** The values offered, in order, each shown by its label. */
  values: readonly Value[];
  labels: OptionLabels<Value>;
}

/** A FormField whose control is a select of a fixed list of values. */
export function SelectFormField<T extends FieldValues, C, O extends FieldValues, Value extends string>({
  values,
  labels,
  ...props
}: SelectFormFieldProps<T, C, O, Value>) {
  return (
    <FormField {...props}>
      {(field) => (
        <Select {...field}>
          <Options values={values} labels={labels} />
        </Select>
      )}
    </FormField>
  );
}
