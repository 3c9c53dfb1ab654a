// A trimmed text field between two lengths, each with its message: the shape of every
// subject, message and name the customer's forms check.
import * as v from "valibot";

export function textSchema(min: number, minMessage: string, max: number, maxMessage: string) {
  return v.pipe(v.string(), v.trim(), v.minLength(min, minMessage), v.maxLength(max, maxMessage));
}
