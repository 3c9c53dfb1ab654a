// The confirmation of a change that cannot be undone (revoking an API key or a gateway token,
// deleting a webhook endpoint): Cancel, or the danger button that sends it with one
// Idempotency-Key for this confirmation (a second click repeats the same change); then it
// closes, a refusal shown by the panel.
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { errorMessage } from "@/lib/api-error";
import { newIdempotencyKey } from "@/lib/idempotency";

/** What a confirmation says. */
export interface ConfirmTexts {
  title: string;
  description: string;
  /** The danger button's text, and its text while the change is sent. */
  confirmText: string;
  pendingText: string;
}

/** A confirmation dialog's props: what it changes (`Target`), closing, and the server's refusal (shown in the panel). */
export type KeyedDialogProps<Target> = Target & { onClose: () => void; onError: (message: string) => void };

export type KeyedConfirmDialogProps = KeyedDialogProps<{
  texts: ConfirmTexts;
  /** Shown above the buttons (what is changed). */
  children?: ReactNode;
  /** Sends the change with this confirmation's Idempotency-Key. */
  change: (idempotencyKey: string) => Promise<unknown>;
}>;

export function KeyedConfirmDialog({ texts, children, change, onClose, onError }: KeyedConfirmDialogProps) {
  const { title, description, confirmText, pendingText } = texts;
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
        <DialogActions onCancel={onClose} cancelDisabled={pending}>
          <Button variant="danger" pending={pending} pendingText={pendingText} onClick={() => void confirm()}>
            {confirmText}
          </Button>
        </DialogActions>
      </div>
    </Dialog>
  );
}
