import type { ReactNode, Ref } from "react";

interface PanelHeadingProps {
  id: string;
  /** Focused when the panel opens, so keyboard and screen reader users land on it. */
  ref: Ref<HTMLHeadingElement>;
  children: ReactNode;
}

/** The title of a detail panel (a ticket, a message): long words wrap, and it takes focus without a ring. */
export function PanelHeading({ id, ref, children }: PanelHeadingProps) {
  return (
    <h2 id={id} ref={ref} tabIndex={-1} className="min-w-0 text-lg font-semibold break-words text-slate-900 focus:outline-none">
      {children}
    </h2>
  );
}
