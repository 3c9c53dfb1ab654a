import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

interface RegenerateDialogProps {
  address: string;
  pending: boolean;
  error: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** "Regenerate credentials?": the confirmation before a proxy gets a new password. Loaded on first use. */
export function RegenerateDialog({ address, pending, error, onCancel, onConfirm }: RegenerateDialogProps) {
  return (
    <Dialog
      open
      onClose={() => !pending && onCancel()}
      title="Regenerate credentials?"
      description={`${address} gets a new password. The current password stops working at once, so update every tool that uses this proxy.`}
    >
      <div aria-live="polite">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" disabled={pending} onClick={onCancel}>
          Cancel
        </Button>
        <Button pending={pending} pendingText="Regenerating..." onClick={onConfirm}>
          Regenerate
        </Button>
      </div>
    </Dialog>
  );
}
