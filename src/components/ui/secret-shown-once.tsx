// A secret the server shows this once (a new API key, a webhook's signing secret, a gateway
// token): its notice, the value in a read-only field that selects itself, Copy, what else goes
// with it (the children), and Done.
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/input";

export interface SecretShownOnceProps {
  /** The secret. */
  value: string;
  /** The exact notice above it, a warning unless `tone` says otherwise. */
  warning: string;
  tone?: "warning" | "success";
  /** The field's id and label. */
  id: string;
  label: string;
  /** The Copy button's name for screen readers. */
  copyLabel: string;
  /** Shown under the secret, above Done. */
  children?: ReactNode;
  onDone: () => void;
}

export function SecretShownOnce({ value, warning, tone = "warning", id, label, copyLabel, children, onDone }: SecretShownOnceProps) {
  return (
    <div className="space-y-4">
      <Alert tone={tone}>{warning}</Alert>
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <div className="flex min-w-0 items-center gap-2">
          <Input id={id} readOnly value={value} className="min-w-0 flex-1 font-mono text-xs" onFocus={(e) => e.target.select()} />
          <CopyButton value={value} label={copyLabel} className="shrink-0" />
        </div>
      </div>
      {children}
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
