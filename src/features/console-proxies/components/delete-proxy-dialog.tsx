// Delete confirmation (admin spec 5: "Are you sure you want to delete this proxy?"); an
// assigned proxy also says which customer loses it.
import { useState } from "react";
import { Alert, LiveAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { AdminProxy } from "@/features/console-proxies/api";
import { failureMessage, removeProxy } from "@/features/console-proxies/stores";
import { endpoint } from "@/lib/endpoint";

interface DeleteProxyDialogProps {
  proxy: AdminProxy | null;
  onClose: () => void;
}

export function DeleteProxyDialog({ proxy, onClose }: DeleteProxyDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const close = () => {
    if (pending) return;
    setError("");
    onClose();
  };
  const confirm = async () => {
    if (!proxy) return;
    setPending(true);
    setError("");
    try {
      await removeProxy(proxy);
      setPending(false);
      onClose();
    } catch (err) {
      setPending(false);
      setError(failureMessage(err, "Failed to delete proxy"));
    }
  };
  const owned = !!proxy?.assigned_to_user_id;

  return (
    <Dialog open={!!proxy} onClose={close} title="Delete proxy" description="Are you sure you want to delete this proxy?">
      {proxy ? (
        <div className="space-y-4">
          <p className="font-mono text-sm break-all text-slate-900">
            {proxy.username} · {endpoint(proxy)}
          </p>
          {owned ? (
            <Alert tone="warning">
              This proxy is assigned to {proxy.owner_email || "a customer"}: they lose it at once, with no refund.
            </Alert>
          ) : null}
          <LiveAlert tone="error">{error}</LiveAlert>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={close} disabled={pending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void confirm()} pending={pending} pendingText="Deleting...">
              Delete
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
