// Generate tab (admin spec "Generate tab"): type, quantity and a place from the reference
// list; the proxies are made with random credentials, AVAILABLE at once.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Options } from "@/components/ui/options";
import { Select } from "@/components/ui/select";
import { MAX_GENERATE, PROXY_TYPE_LABELS, PROXY_TYPES } from "@/lib/catalog";
import { fieldErrors } from "@/lib/api-error";
import { useHydrated } from "@/lib/use-hydrated";
import { COUNTRY_CODES, citiesOf, countryLabel, statesOf } from "@/features/console-proxies/locations";
import { PlaceCombobox } from "@/features/console-proxies/components/place-combobox";
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
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    reset,
    getValues,
    formState: { errors, isSubmitting },
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
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField form={form} name="type" id="generate-type" label="Proxy Type">
          {(field) => (
            <Select {...field}>
              <Options values={PROXY_TYPES} labels={PROXY_TYPE_LABELS} />
            </Select>
          )}
        </FormField>
        <Field id="generate-quantity" label="Quantity" error={errors.quantity?.message}>
          <Input
            id="generate-quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_GENERATE}
            step={1}
            placeholder={`Enter quantity (1-${MAX_GENERATE})`}
            {...fieldAria("generate-quantity", errors.quantity?.message)}
            {...register("quantity")}
          />
        </Field>
        <Field id="generate-country" label="Country" error={errors.country?.message}>
          <Controller
            control={control}
            name="country"
            render={({ field }) => (
              <PlaceCombobox
                id="generate-country"
                noun="countries"
                options={COUNTRY_OPTIONS}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  setValue("state", "");
                  setValue("city", "");
                }}
                placeholder="Search for a country"
                invalid={!!errors.country}
                describedBy={errors.country ? "generate-country-error" : undefined}
              />
            )}
          />
        </Field>
        <Field id="generate-state" label="State (optional)" error={errors.state?.message}>
          <Controller
            control={control}
            name="state"
            render={({ field }) => (
              <PlaceCombobox
                id="generate-state"
                noun="states"
                options={statesOf(country).map((s) => ({ value: s, label: s }))}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  setValue("city", "");
                }}
                placeholder={country ? "Any state" : "Select a country first"}
                disabled={!country}
                clearable
                invalid={!!errors.state}
                describedBy={errors.state ? "generate-state-error" : undefined}
              />
            )}
          />
        </Field>
        <Field id="generate-city" label="City (optional)" error={errors.city?.message}>
          <Controller
            control={control}
            name="city"
            render={({ field }) => (
              <PlaceCombobox
                id="generate-city"
                noun="cities"
                options={citiesOf(country, state).map((c) => ({ value: c, label: c }))}
                value={field.value}
                onChange={field.onChange}
                placeholder={state ? "Any city" : "Select a state first"}
                disabled={!state}
                clearable
                invalid={!!errors.city}
                describedBy={errors.city ? "generate-city-error" : undefined}
              />
            )}
          />
        </Field>
      </div>
      <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Generating...">
        Generate Proxies
      </Button>
    </form>
  );
}
