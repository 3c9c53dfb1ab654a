// The reply box, loaded once a conversation shows it: its form code (react-hook-form) stays
// out of the support page's first load.
import { lazy, Suspense, type ComponentProps } from "react";

const ReplyForm = lazy(() => import("@/components/support/reply-form").then((m) => ({ default: m.ReplyForm })));

export function LazyReplyForm(props: ComponentProps<typeof ReplyForm>) {
  return (
    <Suspense fallback={<div className="h-36 border-t border-slate-200" aria-hidden="true" />}>
      <ReplyForm {...props} />
    </Suspense>
  );
}
