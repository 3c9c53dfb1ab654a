// The reply box: Enter sends, Shift+Enter makes a new line; images and PDFs can be
// attached (checked here, and again by PocketBase's file field). The message is a
// react-hook-form field checked with the valibot schema.
import { valibotResolver } from "@hookform/resolvers/valibot";
import { Paperclip, Send, X } from "lucide-react";
import { useId, useRef, useState, type KeyboardEvent, type ReactNode, type SubmitEvent } from "react";
import { useForm } from "react-hook-form";
import * as v from "valibot";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { ATTACHMENT_ACCEPT, MAX_ATTACHMENTS, ReplySchema, addAttachments } from "@/components/support/schemas";
import { errorMessage, fieldErrors } from "@/lib/api-error";
import { SUPPORT_LIMITS } from "@/lib/catalog";

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

interface ReplyFormProps {
  /** Sends the trimmed text with the files; a rejection's message is shown. */
  onSend: (text: string, files: readonly File[]) => Promise<unknown>;
  /** A line above the box (e.g. who will read the reply). */
  note?: ReactNode;
}

const ReplyFormSchema = v.object({ message: ReplySchema });
type ReplyValues = v.InferInput<typeof ReplyFormSchema>;
const EMPTY: ReplyValues = { message: "" };

export function ReplyForm({ onSend, note }: ReplyFormProps) {
  const id = useId();
  const [files, setFiles] = useState<File[]>([]);
  /** Messages about the files picked, or the server's refusal. */
  const [notes, setNotes] = useState<string[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    clearErrors,
    formState: { errors: fieldErrorsShown, isSubmitting: sending },
  } = useForm<ReplyValues, unknown, v.InferOutput<typeof ReplyFormSchema>>({
    resolver: valibotResolver(ReplyFormSchema),
    defaultValues: EMPTY,
    mode: "onSubmit",
    // The message stays until the next send, as the file messages do.
    reValidateMode: "onSubmit",
  });
  const messageError = fieldErrorsShown.message?.message;
  const errors = messageError ? [messageError] : notes;

  const send = handleSubmit(async ({ message }) => {
    setNotes([]);
    try {
      await onSend(message, files);
      reset(EMPTY);
      setFiles([]);
      setFocus("message");
    } catch (err) {
      const fields = fieldErrors(err);
      setNotes([fields["attachments"] ?? fields["message"] ?? errorMessage(err)]);
    }
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    if (sending) event.preventDefault();
    else void send(event);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!sending) void send();
    }
  };

  const onPick = (picked: FileList | null) => {
    const result = addAttachments(files, Array.from(picked ?? []));
    setFiles(result.files);
    clearErrors("message");
    setNotes(result.errors);
    if (fileInput.current) fileInput.current.value = "";
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2 border-t border-slate-200 p-4" aria-label="Reply">
      <div aria-live="polite">
        {errors.length > 0 ? (
          <Alert tone="error">
            {errors.length === 1 ? (
              errors[0]
            ) : (
              <ul className="list-disc pl-4">
                {errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            )}
          </Alert>
        ) : null}
      </div>
      {note}
      <label htmlFor={`${id}-text`} className="sr-only">
        Your message
      </label>
      <Textarea
        id={`${id}-text`}
        rows={3}
        maxLength={SUPPORT_LIMITS.message_max}
        {...register("message")}
        onKeyDown={onKeyDown}
        placeholder="Type your message..."
        aria-describedby={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        Enter to send, Shift+Enter for a new line. Attach up to {MAX_ATTACHMENTS} images or PDFs, 5 MB each.
      </p>
      {files.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Files to send">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${index}`}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-xs text-slate-700"
            >
              <span className="min-w-0 truncate">{file.name}</span>
              <span className="shrink-0 text-slate-500">({formatSize(file.size)})</span>
              <button
                type="button"
                onClick={() => setFiles(files.filter((_, i) => i !== index))}
                className="rounded-full p-1 hover:bg-slate-200"
                aria-label={`Remove ${file.name}`}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <div>
          <input
            ref={fileInput}
            id={`${id}-files`}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="peer sr-only"
            onChange={(e) => onPick(e.target.files)}
            disabled={sending}
          />
          <label
            htmlFor={`${id}-files`}
            className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 peer-focus-visible:ring-2 peer-focus-visible:ring-primary/40 hover:bg-slate-50"
          >
            <Paperclip className="size-4" aria-hidden="true" />
            Attach files
          </label>
        </div>
        <Button type="submit" pending={sending} pendingText="Sending...">
          <Send className="size-4" aria-hidden="true" />
          Send
        </Button>
      </div>
    </form>
  );
}
