// Generate tab (admin spec "Generate tab"): type, quantity and a place from the reference
// list; the proxies are made with random credentials, AVAILABLE at once, and leave directly
// from the gateway machine (issue #16), spread over the bind addresses of System Settings.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { Controller, useForm, useFormState, useWatch, type UseFormReturn } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormField, SelectFormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { MAX_GENERATE, PROXY_TYPE_LABELS, PROXY_TYPES } from "@/lib/catalog";
import { fieldErrors } from "@/lib/api-error";
import { useHydrated } from "@/lib/use-hydrated";
import { COUNTRY_CODES, citiesOf, countryLabel, statesOf } from "@/features/console-proxies/locations";
import { PlaceCombobox, type PlaceOption } from "@/features/console-proxies/components/place-combobox";
import { EMPTY_GENERATE, GenerateSchema, type GenerateInput, type GenerateOutput } from "@/features/console-proxies/schemas";
import { failureMessage, generate, showBanner } from "@/features/console-proxies/stores";

const COUNTRY_OPTIONS = COUNTRY_CODES.map((code) => ({ value: code, label: countryLabel(code) }));

export function GenerateTab() {
  const hydrated = useHydrated();
  const form = useForm<GenerateInput, unknown, GenerateOutput>({
    resolver: valibotResolver(GenerateSchema),
    defaultValues: EMPTY_GENERATE,
  });
  const {
    control,
    handleSubmit,
    setError,
    reset,
    getValues,
    formState: { isSubmitting },
  } = form;
  const country = useWatch({ control, name: "country" });
  const state = useWatch({ control, name: "state" });

  const onSubmit = async (values: GenerateOutput) => {
    showBanner(null);
    try {
      await generate(values);
      reset({ ...getValues(), quantity: "" });
    } catch (err) {
      const fields = fieldErrors(err);
      for (const [field, message] of Object.entries(fields)) {
        if (field in EMPTY_GENERATE) setError(field as keyof GenerateInput, { message });
      }
      showBanner({ tone: "error", text: failureMessage(err, "Failed to generate proxies") });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} aria-labelledby="generate-heading" aria-busy={isSubmitting} className="space-y-5">
      <div>
        <h2 id="generate-heading" className="text-lg font-semibold text-slate-900">
          Generate Proxies
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          New proxies are created with automatic credentials: a random username and password each. They are immediately available for
          assignment, so customers can buy them as soon as they are generated.
        </p>
        <p className="mt-1 text-sm text-slate-600" data-testid="generate-exit">
          Generated proxies leave directly from the gateway machine (no upstream). When{" "}
          <a href="/console/settings" className="text-primary underline underline-offset-2">
            System Settings
          </a>{" "}
          lists bind addresses under Proxy gateway, they are spread over those local addresses, one after another.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectFormField form={form} name="type" id="generate-type" label="Proxy Type" values={PROXY_TYPES} labels={PROXY_TYPE_LABELS} />
        <FormField form={form} name="quantity" id="generate-quantity" label="Quantity">
          {(field) => (
            <Input
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_GENERATE}
              step={1}
              placeholder={`Enter quantity (1-${MAX_GENERATE})`}
              {...field}
            />
          )}
        </FormField>
        <PlaceField form={form} name="country" options={COUNTRY_OPTIONS} />
        <PlaceField form={form} name="state" options={asOptions(statesOf(country))} />
        <PlaceField form={form} name="city" options={asOptions(citiesOf(country, state))} />
      </div>
      <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Generating...">
        Generate Proxies
      </Button>
    </form>
  );
}

type Place = "country" | "state" | "city";

/**
 * The place fields, outermost first. A state waits for its country and a city for its state
 * (`within`); changing a place clears the places after it. Only the country is required.
 */
const PLACES: Record<Place, { label: string; noun: string; placeholder: string; within?: Place }> = {
  country: { label: "Country", noun: "countries", placeholder: "Search for a country" },
  state: { label: "State (optional)", noun: "states", placeholder: "Any state", within: "country" },
  city: { label: "City (optional)", noun: "cities", placeholder: "Any city", within: "state" },
};
const PLACE_ORDER = Object.keys(PLACES) as Place[];

const asOptions = (names: readonly string[]) => names.map((name) => ({ value: name, label: name }));

/** A place of the form, picked from its reference list. */
function PlaceField({
  form,
  name,
  options,
}: {
  form: UseFormReturn<GenerateInput, unknown, GenerateOutput>;
  name: Place;
  options: readonly PlaceOption[];
}) {
  const { label, noun, placeholder, within } = PLACES[name];
  const id = `generate-${name}`;
  const { errors } = useFormState({ control: form.control, name });
  const error = errors[name];
  const outer = useWatch({ control: form.control, name: within ?? name });
  const waiting = within !== undefined && !outer;
  return (
    <Field id={id} label={label} error={error?.message}>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <PlaceCombobox
            id={id}
            noun={noun}
            options={options}
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              for (const inner of PLACE_ORDER.slice(PLACE_ORDER.indexOf(name) + 1)) form.setValue(inner, "");
            }}
            placeholder={waiting ? `Select a ${within} first` : placeholder}
            disabled={waiting}
            clearable={within !== undefined}
            invalid={!!error}
            describedBy={error ? `${id}-error` : undefined}
          />
        )}
      />
    </Field>
  );
}
