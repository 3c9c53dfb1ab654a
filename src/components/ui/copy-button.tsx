import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { cn } from "@/lib/cn";

/** How long "Copied!" shows (spec 9: the copied notice lasts 2 seconds). */
export const COPIED_NOTICE_MS = 2000;

interface CopyButtonProps {
  value: string;
  /** What is copied, for screen readers: "Copy host and port". */
  label: string;
  className?: string;
}

/** Copies `value` to the clipboard and says "Copied!" for 2 seconds. */
export function CopyButton({ value, label, className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (err) {
      console.error("Copy to clipboard failed", err);
    }
  };

  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={label}
      className={cn("inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs text-slate-600 hover:bg-slate-100", className)}
    >
      {copied ? <Check className="size-3.5 text-green-600" aria-hidden="true" /> : <Copy className="size-3.5" aria-hidden="true" />}
      <span aria-live="polite">{copied ? "Copied!" : "Copy"}</span>
    </button>
  );
}
