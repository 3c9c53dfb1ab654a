// The reply box, loaded once a conversation shows it: its form code (react-hook-form) stays
// out of the support page's first load.
import { lazyComponent } from "@/lib/lazy-component";

export const LazyReplyForm = lazyComponent(
  () => import("@/components/support/reply-form"),
  "ReplyForm",
  <div className="h-36 border-t border-slate-200" aria-hidden="true" />,
);
