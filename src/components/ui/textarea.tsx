import type { Ref, TextareaHTMLAttributes } from "react";
import { controlClass } from "@/components/ui/input";
import { cn } from "@/lib/cn";

export type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> };

export function Textarea({ className, ...props }: TextareaProps) {
  return <textarea className={cn(controlClass, "py-2", className)} {...props} />;
}
