/** One choice of a select: its value and what it shows. */
export interface Option<Value extends string> {
  value: Value;
  label: string;
}

/** How each value of a select is shown: a table of labels, or a function that writes one. */
export type OptionLabels<Value extends string> = Readonly<Record<Value, string>> | ((value: Value) => string);

/** The choices of a list of values, each shown by its label. */
export function labelled<Value extends string>(values: readonly Value[], labels: OptionLabels<Value>): Option<Value>[] {
  const labelOf = typeof labels === "function" ? labels : (value: Value) => labels[value];
  return values.map((value) => ({ value, label: labelOf(value) }));
}

/** A select's options: a list of values each shown by its label, or the choices themselves. */
export function Options<Value extends string>(
  props: { values: readonly Value[]; labels: OptionLabels<Value> } | { options: readonly Option<Value>[] },
) {
  const options = "options" in props ? props.options : labelled(props.values, props.labels);
  return options.map(({ value, label }) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}
