// A message's protected attachments: links (thumbnails for images) opened with the user's
// file token, renewed while they are shown.
import { useStore } from "@nanostores/react";
import { FileText, Paperclip } from "lucide-react";
import { useState } from "react";
import { attachmentUrl } from "@/components/support/api";
import { displayFileName } from "@/components/support/format";
import { $fileToken } from "@/components/support/stores";
import type { ChatMessageRecord } from "@/lib/pocketbase-types";

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** The thumbnail keeps the URL it first loaded with, so renewing the token doesn't reload it. */
function Thumbnail({ src, alt }: { src: string; alt: string }) {
  const [first] = useState(src);
  return <img src={first} alt={alt} width={64} height={64} loading="lazy" className="size-16 rounded object-cover" />;
}

export function Attachments({ message }: { message: ChatMessageRecord }) {
  const token = useStore($fileToken);
  const files = message.attachments ?? [];
  if (files.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label="Attachments">
      {files.map((file) => {
        const name = displayFileName(file);
        const image = IMAGE_NAME.test(file);
        if (!token) {
          return (
            <li key={file} className="inline-flex items-center gap-1 text-xs text-slate-500">
              <Paperclip className="size-3.5" aria-hidden="true" /> {name}
            </li>
          );
        }
        return (
          <li key={file}>
            <a
              href={attachmentUrl(message, file, token)}
              target="_blank"
              rel="noopener noreferrer"
              className="flex max-w-[14rem] items-center gap-2 rounded-md border border-slate-200 bg-white p-1.5 text-xs text-slate-700 hover:bg-slate-50"
            >
              {image ? (
                <Thumbnail src={attachmentUrl(message, file, token, "100x100")} alt="" />
              ) : (
                <FileText className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
              )}
              <span className="min-w-0 truncate">{name}</span>
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
