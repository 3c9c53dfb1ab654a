/** How each value of a select is shown: a table of labels, or a function that writes one. */
export type OptionLabels<Value extends string> = Readonly<Record<Value, string>> | ((value: Value) => string);

/** A select's options for a list of values, each shown by its label. */
export function Options<Value extends string>({ values, labels }: { values: readonly Value[]; labels: OptionLabels<Value> }) {
  const labelOf = typeof labels === "function" ? labels : (value: Value) => labels[value];
  return values.map((value) => (
    <option key={value} value={value}>
      {labelOf(value)}
    </option>
  ));
}
