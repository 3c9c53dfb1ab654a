// The contact form island (spec 2.6, 4, 5): validated on submit, stored for real,
// "Message Sent!" afterwards, the server's message on failure (input kept).
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { Input, controlClass } from "@/components/ui/input";
import {
  CONTACT_TYPE_LABELS,
  CONTACT_TYPES,
  ContactMessageSchema,
  EMPTY_CONTACT_MESSAGE,
  contactTypeFrom,
  type ContactMessageInput,
  type ContactMessageOutput,
} from "@/features/contact/schemas";
import { cn } from "@/lib/cn";
import { OFFLINE_MESSAGE } from "@/lib/messages";
import { useHydrated } from "@/lib/use-hydrated";

export default function ContactForm() {
  const [sent, setSent] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const successHeading = useRef<HTMLHeadingElement>(null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<ContactMessageInput, unknown, ContactMessageOutput>({
    resolver: valibotResolver(ContactMessageSchema),
    defaultValues: EMPTY_CONTACT_MESSAGE,
    mode: "onSubmit",
  });

  // A link like /contact?type=partnership preselects the topic.
  useEffect(() => {
    const type = contactTypeFrom(new URLSearchParams(window.location.search).get("type"));
    if (type) setValue("type", type);
  }, [setValue]);

  useEffect(() => {
    if (sent) successHeading.current?.focus();
  }, [sent]);

  const onSubmit = async (values: ContactMessageOutput) => {
    setServerError(null);
    // The PocketBase SDK loads on the first submit, not with the page.
    let modules: [typeof import("@/features/contact/api"), typeof import("@/lib/api-error")];
    try {
      modules = await Promise.all([import("@/features/contact/api"), import("@/lib/api-error")]);
    } catch {
      setServerError(OFFLINE_MESSAGE);
      return;
    }
    const [{ sendContactMessage }, { errorMessage, fieldErrors }] = modules;
    try {
      await sendContactMessage(values);
      reset(EMPTY_CONTACT_MESSAGE);
      setSent(true);
    } catch (err) {
      const perField = fieldErrors(err);
      for (const [field, message] of Object.entries(perField)) {
        if (field in EMPTY_CONTACT_MESSAGE) setError(field as keyof ContactMessageInput, { message });
      }
      setServerError(errorMessage(err));
    }
  };

  if (sent) {
    return (
      <div className="py-8 text-center">
        <div aria-hidden="true" className="mx-auto grid size-14 place-items-center rounded-full bg-green-100 text-green-700">
          <svg viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
            <path d="M5 13l4 4L19 7" />
          </svg>
        </div>
        <h3 ref={successHeading} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 focus:outline-none">
          Message Sent!
        </h3>
        <p role="status" className="mx-auto mt-2 max-w-md text-slate-600">
          Thank you for reaching out. Our team will get back to you within 2-4 hours during business hours.
        </p>
        <Button
          variant="secondary"
          className="mt-6"
          onClick={() => {
            setSent(false);
            setServerError(null);
            reset(EMPTY_CONTACT_MESSAGE);
            requestAnimationFrame(() => setFocus("name"));
          }}
        >
          Send Another Message
        </Button>
      </div>
    );
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit(onSubmit)}
      // Start fetching the SDK as soon as someone begins typing.
      onFocus={() => void import("@/features/contact/api").catch(() => {})}
      className="space-y-5"
      aria-busy={isSubmitting}
    >
      {serverError ? <Alert tone="error">{serverError}</Alert> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="contact-name" label="Name" error={errors.name?.message}>
          <Input id="contact-name" autoComplete="name" {...fieldAria("contact-name", errors.name?.message)} {...register("name")} />
        </Field>
        <Field id="contact-email" label="Email" error={errors.email?.message}>
          <Input
            id="contact-email"
            type="email"
            autoComplete="email"
            {...fieldAria("contact-email", errors.email?.message)}
            {...register("email")}
          />
        </Field>
      </div>
      <Field id="contact-type" label="Topic" error={errors.type?.message}>
        <select
          id="contact-type"
          className={cn(controlClass, "h-10")}
          {...fieldAria("contact-type", errors.type?.message)}
          {...register("type")}
        >
          {CONTACT_TYPES.map((type) => (
            <option key={type} value={type}>
              {CONTACT_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="contact-subject" label="Subject" error={errors.subject?.message}>
        <Input id="contact-subject" {...fieldAria("contact-subject", errors.subject?.message)} {...register("subject")} />
      </Field>
      <Field id="contact-message" label="Message" error={errors.message?.message}>
        <textarea
          id="contact-message"
          rows={6}
          className={cn(controlClass, "py-2")}
          {...fieldAria("contact-message", errors.message?.message)}
          {...register("message")}
        />
      </Field>
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={!hydrated} pending={isSubmitting} pendingText="Sending...">
        Send Message
      </Button>
    </form>
  );
}
