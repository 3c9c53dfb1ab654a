// Import tab (admin spec "Import tab", issue #16): upstream proxies as host:port:username:password
// lines, pasted or read from a .txt/.csv file, with an optional type and place for the batch.
// Each line becomes a proxy sold on the gateway under new shop credentials; the upstream's own
// stay encrypted on the server. The server imports the valid lines in one transaction and
// reports every skipped line.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { useId, useState, type ChangeEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { controlClass } from "@/components/ui/input";
import { Options } from "@/components/ui/options";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { PROXY_TYPE_LABELS, PROXY_TYPES } from "@/lib/catalog";
import { fieldErrors } from "@/lib/api-error";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/plural";
import { useHydrated } from "@/lib/use-hydrated";
import type { SkippedLine } from "@/features/console-proxies/api";
import { citiesOf, COUNTRY_CODES, countryLabel, statesOf, UNKNOWN_COUNTRY } from "@/features/console-proxies/locations";
import {
  EMPTY_IMPORT,
  ImportSchema,
  importLineCount,
  MAX_IMPORT_LINES,
  MAX_IMPORT_TEXT,
  type ImportInput,
  type ImportOutput,
} from "@/features/console-proxies/schemas";
import { failureMessage, importList, showBanner } from "@/features/console-proxies/stores";
import { ClientResponseError } from "pocketbase";

/** Files larger than this are refused before reading (the most lines an import takes fit easily). */
const MAX_FILE_BYTES = 3_000_000;

function skippedOf(err: unknown): SkippedLine[] {
  if (!(err instanceof ClientResponseError)) return [];
  const skipped = (err.response?.["data"] as { skipped?: unknown } | undefined)?.skipped;
  return Array.isArray(skipped) ? (skipped as SkippedLine[]) : [];
}

export function ImportTab() {
  const hydrated = useHydrated();
  const fileId = useId();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ImportInput, unknown, ImportOutput>({
    resolver: valibotResolver(ImportSchema),
    defaultValues: EMPTY_IMPORT,
    reValidateMode: "onSubmit",
  });
  const [fileNote, setFileNote] = useState("");
  const [report, setReport] = useState<{ imported: number; skipped: SkippedLine[] } | null>(null);
  const [text, country, state] = useWatch({ control, name: ["text", "country", "state"] });
  const states = statesOf(country);
  const cities = citiesOf(country, state);
  const lines = importLineCount(text);
  const blank = text.trim() === "";
  const textError = errors.text?.message;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    clearErrors("text");
    if (file.size > MAX_FILE_BYTES) {
      setError("text", { message: `${file.name} is too large to import (at most ${MAX_IMPORT_TEXT} lines).` });
      return;
    }
    setValue("text", await file.text());
    setFileNote(`Loaded ${file.name}.`);
  };

  const onSubmit = async ({ text: list, type, country, state, city }: ImportOutput) => {
    if (blank) return;
    setReport(null);
    showBanner(null);
    try {
      const result = await importList({
        text: list,
        ...(type ? { type } : {}),
        ...(country ? { country } : {}),
        ...(country && state ? { state } : {}),
        ...(country && state && city ? { city } : {}),
      });
      setReport({ imported: result.imported, skipped: result.skipped });
      reset();
      setFileNote("");
    } catch (err) {
      const skipped = skippedOf(err);
      if (skipped.length > 0) setReport({ imported: 0, skipped });
      const fields = fieldErrors(err);
      if (fields["text"] && skipped.length === 0) setError("text", { message: fields["text"] });
      showBanner({ tone: "error", text: failureMessage(err, "Failed to import proxies") });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      aria-labelledby="import-heading"
      aria-busy={isSubmitting}
      className="space-y-5"
    >
      <div>
        <h2 id="import-heading" className="text-lg font-semibold text-slate-900">
          Import Proxies
        </h2>
        <p className="mt-1 text-sm text-slate-600" data-testid="import-explainer">
          Each line is an <strong className="font-medium text-slate-800">upstream proxy</strong> you bought elsewhere, as{" "}
          <code className="font-mono text-slate-800">host:port:username:password</code> (an IPv6 host in brackets:{" "}
          <code className="font-mono text-slate-800">[2001:db8::1]:8080:username:password</code>), up to {MAX_IMPORT_TEXT} lines. Each
          becomes a proxy the shop sells on its own gateway under new shop credentials (a random username and password); the gateway sends
          the customer&apos;s traffic on through the upstream. The upstream&apos;s username and password stay encrypted on the server and
          are never shown to customers.
        </p>
        <p className="mt-1 text-sm text-slate-600">
          Imported proxies are Available. The type and place below apply to every line; without a choice they are Datacenter proxies in
          country &quot;Unknown&quot;.
        </p>
      </div>
      <Field id="import-text" label="Proxy list" error={textError}>
        <Textarea
          id="import-text"
          rows={10}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          placeholder={"203.0.113.10:8080:upstream-user1:secret1\nupstream.example.com:3128:upstream-user2:secret2"}
          {...register("text", { onChange: () => clearErrors("text") })}
          aria-invalid={!!textError}
          aria-describedby={`import-text-count${textError ? " import-text-error" : ""}`}
        />
        <p id="import-text-count" className={cn("text-xs", lines > MAX_IMPORT_LINES ? "text-red-600" : "text-slate-500")}>
          {plural(lines, "line", "lines")}
          {fileNote ? ` · ${fileNote}` : ""}
        </p>
      </Field>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={fileId} label="Or load a file (.txt, .csv)">
          <input
            id={fileId}
            type="file"
            accept=".txt,.csv,text/plain,text/csv"
            onChange={(e) => void onFile(e)}
            className={cn(
              controlClass,
              "h-10 py-1.5 file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-2 file:py-1 file:text-sm file:text-slate-800",
            )}
          />
        </Field>
        <Field id="import-type" label="Proxy Type (optional)">
          <Select id="import-type" {...register("type")}>
            <option value="">Datacenter (default)</option>
            <Options values={PROXY_TYPES} labels={PROXY_TYPE_LABELS} />
          </Select>
        </Field>
        <Field id="import-country" label="Country (optional)">
          <Select
            id="import-country"
            {...register("country", {
              onChange: () => {
                setValue("state", "");
                setValue("city", "");
              },
            })}
          >
            <option value="">{UNKNOWN_COUNTRY} (default)</option>
            <Options values={COUNTRY_CODES} labels={countryLabel} />
          </Select>
        </Field>
        <Field id="import-state" label="State (optional)">
          <Select id="import-state" disabled={states.length === 0} {...register("state", { onChange: () => setValue("city", "") })}>
            <option value="">{country ? "Any state" : "Select a country first"}</option>
            <Options values={states} labels={(name) => name} />
          </Select>
        </Field>
        <Field id="import-city" label="City (optional)">
          <Select id="import-city" disabled={cities.length === 0} {...register("city")}>
            <option value="">{state ? "Any city" : "Select a state first"}</option>
            <Options values={cities} labels={(name) => name} />
          </Select>
        </Field>
      </div>
      <Button type="submit" disabled={!hydrated || blank} pending={isSubmitting} pendingText="Importing...">
        Import Proxies
      </Button>
      <div aria-live="polite">{report ? <ImportReport imported={report.imported} skipped={report.skipped} /> : null}</div>
    </form>
  );
}

function ImportReport({ imported, skipped }: { imported: number; skipped: SkippedLine[] }) {
  return (
    <section aria-labelledby="import-report-heading" className="space-y-3" data-testid="import-report">
      <h3 id="import-report-heading" className="text-base font-semibold text-slate-900">
        Import result
      </h3>
      {imported > 0 ? <Alert tone="success">Successfully imported {plural(imported, "proxy", "proxies")}</Alert> : null}
      {skipped.length > 0 ? (
        <div className="space-y-2">
          <p className="text-sm font-medium text-slate-800">{plural(skipped.length, "line", "lines")} skipped</p>
          {/* A scrolling list must be reachable by keyboard (axe scrollable-region-focusable). */}
          <ol
            aria-label="Skipped lines"
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable by keyboard
            tabIndex={0}
            className="max-h-72 divide-y divide-slate-100 overflow-auto rounded-lg border border-slate-200 bg-white text-sm"
          >
            {skipped.map((s) => (
              <li key={s.line} className="px-3 py-2" data-testid="skipped-line">
                <p className="font-medium text-slate-900">
                  Line {s.line}: {s.reason}
                </p>
                <p className="font-mono text-xs break-all text-slate-600">{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      ) : imported > 0 ? (
        <p className="text-sm text-slate-600">No lines were skipped.</p>
      ) : null}
    </section>
  );
}
