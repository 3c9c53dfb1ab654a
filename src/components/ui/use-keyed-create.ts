// The submit of a "create" form (a new API key, webhook endpoint or gateway token): one
// Idempotency-Key per attempt, the server's field errors under their fields and any other
// refusal as the form's error.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useRef, useState, type FormEvent } from "react";
import { useForm, type DefaultValues, type FieldPath, type FieldValues, type UseFormReturn } from "react-hook-form";
import type * as v from "valibot";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";

export interface KeyedCreate {
  /** The refusal no field shows ("" when there is none). */
  error: string;
  /** The form's onSubmit. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * Sends the form's body with `create`, then hands its answer to `onCreated`. `serverFields`
 * names the form field that shows the server's error on each body field; `fieldMessage`
 * words it for the field (as the server says it by default).
 */
export function useKeyedCreate<Input extends FieldValues, Output, Created>(
  form: UseFormReturn<Input, unknown, Output>,
  serverFields: Readonly<Record<string, FieldPath<Input>>>,
  create: (body: Output, idempotencyKey: string) => Promise<Created>,
  onCreated: (created: Created) => void,
  fieldMessage: (message: string) => string = (message) => message,
): KeyedCreate {
  const [error, setError] = useState("");
  // One Idempotency-Key per attempt: a retry of the same body (after a failure) sends the same
  // one, so a double click or a network retry creates once; any change makes a new attempt.
  const attempt = useRef<{ signature: string; key: string } | null>(null);

  const submit = async (body: Output) => {
    const signature = JSON.stringify(body);
    if (attempt.current?.signature !== signature) attempt.current = { signature, key: newIdempotencyKey() };
    try {
      onCreated(await create(body, attempt.current.key));
    } catch (err) {
      const fields = fieldErrors(err);
      let shown = false;
      for (const [field, name] of Object.entries(serverFields)) {
        const message = fields[field];
        if (message) {
          form.setError(name, { message: fieldMessage(message) });
          shown = true;
        }
      }
      if (!shown) setError(errorMessage(err));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // The dialog is rendered in a portal, but React sends its submit up the component tree.
    event.stopPropagation();
    setError("");
    void form.handleSubmit(submit)(event);
  };

  return { error, onSubmit };
}

/** A create form over a valibot schema, with useKeyedCreate's submit. */
export function useKeyedCreateForm<Input extends FieldValues, Output, Created>(
  schema: v.GenericSchema<Input, Output>,
  defaultValues: DefaultValues<Input>,
  serverFields: Readonly<Record<string, FieldPath<Input>>>,
  create: (body: Output, idempotencyKey: string) => Promise<Created>,
  onCreated: (created: Created) => void,
  fieldMessage?: (message: string) => string,
): KeyedCreate & { form: UseFormReturn<Input, unknown, Output> } {
  const form = useForm<Input, unknown, Output>({ resolver: valibotResolver(schema), defaultValues });
  return { form, ...useKeyedCreate(form, serverFields, create, onCreated, fieldMessage) };
}
