import { valibotResolver } from "@hookform/resolvers/valibot";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, SelectFormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ProfileSchema, type ProfileInput, type ProfileOutput } from "@/features/account/schemas";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { countryNames } from "@/lib/shared-data";
import type { UserRecord } from "@/lib/pocketbase-types";
import { useHydrated } from "@/lib/use-hydrated";
import { updateOwnUser } from "@/stores/auth";

const COUNTRIES: readonly string[] = countryNames;
/** The list, led by "Select your country" when the stored country is not one of it. */
const countryChoices = (current: string): readonly string[] => (COUNTRIES.includes(current) ? COUNTRIES : ["", ...COUNTRIES]);

/** Settings → Profile: first and last name and country, saved on the user's own record (PocketBase's users update rule). */
export function ProfileForm({ user }: { user: UserRecord }) {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const form = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: valibotResolver(ProfileSchema),
    defaultValues: { firstName: user.first_name, lastName: user.last_name, country: COUNTRIES.includes(user.country) ? user.country : "" },
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(
    async ({ firstName, lastName, country }) => {
      setOutcome(null);
      try {
        const saved = await updateOwnUser({ first_name: firstName, last_name: lastName, country });
        reset({ firstName: saved.first_name, lastName: saved.last_name, country: saved.country });
        setOutcome({ tone: "success", text: "Profile updated successfully" });
      } catch (err) {
        const fields = fieldErrors(err);
        if (fields["first_name"]) setError("firstName", { message: fields["first_name"] });
        if (fields["last_name"]) setError("lastName", { message: fields["last_name"] });
        if (fields["country"]) setError("country", { message: fields["country"] });
        setOutcome({ tone: "error", text: `Your profile was not saved: ${errorMessage(err)}` });
      }
    },
    () => setOutcome(null),
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-5">
      <div aria-live="polite">{outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}</div>
      <FormField form={form} name="firstName" id="profile-first-name" label="First name">
        {(field) => <Input autoComplete="given-name" {...field} />}
      </FormField>
      <FormField form={form} name="lastName" id="profile-last-name" label="Last name">
        {(field) => <Input autoComplete="family-name" {...field} />}
      </FormField>
      <SelectFormField
        form={form}
        name="country"
        id="profile-country"
        label="Country"
        values={countryChoices(user.country)}
        labels={(value) => value || "Select your country"}
      />
      <Button type="submit" disabled={!hydrated} pending={isSubmitting} pendingText="Saving...">
        Save Profile
      </Button>
    </form>
  );
}
