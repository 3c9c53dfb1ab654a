// A dialog that creates something (an API key, a webhook endpoint, a gateway token) with a
// form, then shows in its place what only that answer holds (the secret, shown this once).
import { useState, type ComponentType } from "react";
import { Dialog } from "@/components/ui/dialog";

/** The form's props: hand the server's answer to onCreated. */
export interface CreateFormProps<Created> {
  onCreated: (created: Created) => void;
  onCancel: () => void;
}

/** The dialog's texts before and after (module scope beside the dialog). */
export interface CreateDialogTexts<Created> {
  title: string;
  description: string;
  createdTitle: (created: Created) => string;
}

interface CreateDialogProps<Created> {
  open?: boolean;
  onClose: () => void;
  texts: CreateDialogTexts<Created>;
  Form: ComponentType<CreateFormProps<Created>>;
  Created: ComponentType<{ created: Created; onDone: () => void }>;
}

export function CreateDialog<Created>({ open = true, onClose, texts, Form, Created }: CreateDialogProps<Created>) {
  const [created, setCreated] = useState<Created | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      className="max-w-lg"
      title={created ? texts.createdTitle(created) : texts.title}
      description={created ? undefined : texts.description}
    >
      {created ? <Created created={created} onDone={close} /> : <Form onCreated={setCreated} onCancel={close} />}
    </Dialog>
  );
}
