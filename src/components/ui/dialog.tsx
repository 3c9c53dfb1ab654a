// A modal dialog on Headless UI (focus trap, Escape, scroll lock, aria wiring).
import { Dialog as HeadlessDialog, DialogPanel, DialogTitle, Description } from "@headlessui/react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}

export function Dialog({ open, onClose, title, description, className, children }: DialogProps) {
  return (
    <HeadlessDialog open={open} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className={cn("max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl bg-white p-6 shadow-xl", className)}>
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          {description ? <Description className="mt-1 text-sm text-slate-600">{description}</Description> : null}
          <div className="mt-4">{children}</div>
        </DialogPanel>
      </div>
    </HeadlessDialog>
  );
}

/** A dialog's buttons, right-aligned: Cancel, then its own action (the children). */
export function DialogActions({
  onCancel,
  cancelDisabled,
  children,
}: {
  onCancel: () => void;
  cancelDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="secondary" disabled={cancelDisabled} onClick={onCancel}>
        Cancel
      </Button>
      {children}
    </div>
  );
}
