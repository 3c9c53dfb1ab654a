// The confirmation of a change that cannot be undone (revoking an API key or a gateway token,
// deleting a webhook endpoint): Cancel, or the danger button that sends it with one
// Idempotency-Key for this confirmation (a second click repeats the same change); then it
// closes, a refusal shown by the panel.
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";

export interface KeyedConfirmDialogProps {
  title: string;
  description: string;
  /** Shown above the buttons (what is changed). */
  children?: ReactNode;
  /** The danger button's text, and its text while the change is sent. */
  confirmText: string;
  pendingText: string;
  /** Sends the change with this confirmation's Idempotency-Key. */
  change: (idempotencyKey: string) => Promise<unknown>;
  onClose: () => void;
  /** The server's refusal, shown in the panel. */
  onError: (message: string) => void;
}

export function KeyedConfirmDialog({
  title,
  description,
  children,
  confirmText,
  pendingText,
  change,
  onClose,
  onError,
}: KeyedConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [idempotencyKey] = useState(newIdempotencyKey);
  const confirm = async () => {
    setPending(true);
    try {
      await change(idempotencyKey);
    } catch (err) {
      onError(errorMessage(err));
    } finally {
      setPending(false);
      onClose();
    }
  };
  return (
    <Dialog open onClose={() => (pending ? undefined : onClose())} title={title} description={description}>
      <div className="space-y-4">
        {children}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={pending} onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" pending={pending} pendingText={pendingText} onClick={() => void confirm()}>
            {confirmText}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
