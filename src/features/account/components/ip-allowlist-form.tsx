import { useEffect, useState, type FormEvent } from "react";
import { Alert, LoadError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, fieldAria } from "@/components/ui/field";
import { ListSkeleton } from "@/components/ui/list-state";
import { Textarea } from "@/components/ui/textarea";
import { fetchIpAllowlist, saveIpAllowlist } from "@/features/account/api";
import { errorMessage, fieldErrors, isAbort } from "@/lib/api-error";
import { plural } from "@/lib/plural";
import { useHydrated } from "@/lib/use-hydrated";

const ID = "ip-allowlist-entries";

type Load = { status: "loading" } | { status: "error"; error: string } | { status: "ready" };

/**
 * Settings → Security → Proxy IP allowlist: the addresses and CIDR ranges, one per line,
 * that the customer's proxies answer. The server checks and normalises every entry
 * (PUT /api/v1/account/ip-allowlist); the form shows the list it stored, or its message.
 */
export function IpAllowlistForm() {
  const hydrated = useHydrated();
  const [load, setLoad] = useState<Load>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const [fieldError, setFieldError] = useState("");
  const [outcome, setOutcome] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchIpAllowlist(controller.signal).then(
      (list) => {
        setText(list.entries.join("\n"));
        setLoad({ status: "ready" });
      },
      (err: unknown) => {
        if (!isAbort(err)) setLoad({ status: "error", error: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    setFieldError("");
    setSaving(true);
    try {
      const saved = await saveIpAllowlist(text);
      setText(saved.entries.join("\n"));
      setOutcome({
        tone: "success",
        text:
          saved.entries.length === 0
            ? "IP allowlist cleared: your proxies answer connections from any address."
            : `IP allowlist saved: your proxies answer only connections from ${plural(saved.entries.length, "address or range", "addresses or ranges")}.`,
      });
    } catch (err) {
      const entries = fieldErrors(err)["entries"];
      if (entries) setFieldError(entries);
      else setOutcome({ tone: "error", text: `Your IP allowlist was not saved: ${errorMessage(err)}` });
    } finally {
      setSaving(false);
    }
  };

  if (load.status === "loading")
    return <ListSkeleton label="Loading your IP allowlist" rows={2} rowClassName="h-20" className="max-w-md" />;
  if (load.status === "error")
    return (
      <LoadError
        message={load.error}
        onRetry={() => {
          setLoad({ status: "loading" });
          setAttempt((n) => n + 1);
        }}
        className="max-w-md"
      />
    );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="max-w-md space-y-4">
      <div aria-live="polite">{outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}</div>
      <Field
        id={ID}
        label="Allowed addresses and ranges"
        error={fieldError || undefined}
        hint="One per line: IPv4 or IPv6 addresses (203.0.113.7, 2001:db8::1) or CIDR ranges (203.0.113.0/24), at most 100. Leave it empty to allow any address."
      >
        <Textarea
          id={ID}
          name="entries"
          rows={6}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          className="font-mono"
          placeholder={"203.0.113.7\n198.51.100.0/24"}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setFieldError("");
          }}
          {...fieldAria(ID, fieldError || undefined, { hint: true })}
        />
      </Field>
      <Button type="submit" disabled={!hydrated} pending={saving} pendingText="Saving...">
        Save Allowlist
      </Button>
    </form>
  );
}
