// A group of checkboxes the developer API's forms ask with (an API key's scopes, a webhook's
// events): each choice with what it means, and the group's error under them.
import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

export interface Choice {
  value: string;
  /** What the box is called (a scope's name, an event's code). */
  label: ReactNode;
  /** What choosing it means. */
  text: string;
}

export interface ChoiceFieldsetProps {
  legend: string;
  /** The ids' stem: each choice's text is `${id}-${value}`, the error `${id}s-error`. */
  id: string;
  choices: readonly Choice[];
  register: UseFormRegisterReturn;
  /** The form's error of the group (react-hook-form reports an array's own under root). */
  error: { message?: string | undefined; root?: { message?: string | undefined } | undefined } | undefined;
}

/** Whether a checkbox group's value (one value, or a list) holds `value`. */
export function chosen(values: unknown, value: string): boolean {
  return Array.isArray(values) ? values.includes(value) : values === value;
}

export function ChoiceFieldset({ legend, id, choices, register, error }: ChoiceFieldsetProps) {
  const message = error?.message ?? error?.root?.message;
  return (
    <fieldset className="space-y-2" aria-describedby={message ? `${id}s-error` : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {choices.map(({ value, label, text }) => (
        <label key={value} className="flex items-start gap-2 text-sm">
          <input type="checkbox" value={value} className="mt-1" aria-describedby={`${id}-${value}`} {...register} />
          <span>
            {label}
            <span id={`${id}-${value}`} className="block text-slate-600">
              {text}
            </span>
          </span>
        </label>
      ))}
      {message ? (
        <p id={`${id}s-error`} className="text-sm text-red-600">
          {message}
        </p>
      ) : null}
    </fieldset>
  );
}
