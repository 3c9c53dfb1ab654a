// The bottom bar's "More" (issue #15): the sixth item of the phone bar, an island of its own
// inside the static sidebar. Its sheet (more-sheet.tsx) loads on the first open.
import { Ellipsis } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { AppArea } from "@/features/app-shell/nav";
import { lazyComponent } from "@/lib/lazy-component";

const MoreSheet = lazyComponent(() => import("@/features/app-shell/more-sheet"), "MoreSheet");

interface MoreMenuProps {
  area: AppArea;
  /** The page shown (marked in the sheet). */
  pathname: string;
  /** Admins also get the switch to the other area. */
  isAdmin: boolean;
}

/** The bar's More button, and its sheet once opened. */
export function MoreMenu({ area, pathname, isAdmin }: MoreMenuProps) {
  const [open, setOpen] = useState(false);
  // The sheet's code (the dialog library) loads on the first open, not with every page.
  const [opened, setOpened] = useState(false);
  const close = () => setOpen(false);
  const button = useRef<HTMLButtonElement>(null);

  // Focus goes back to More on close. The dialog library restores focus from a history it
  // starts keeping when it loads, which is after More was focused, so it cannot do it here.
  useEffect(() => {
    if (opened && !open) button.current?.focus();
  }, [opened, open]);

  // A page restored from the back/forward cache comes back with the sheet closed.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setOpen(false);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
        className="flex w-full flex-col items-center gap-1 px-0.5 py-2 text-xs leading-tight text-slate-600"
      >
        <Ellipsis className="size-5" aria-hidden="true" />
        More
      </button>
      {opened ? <MoreSheet open={open} onClose={close} area={area} pathname={pathname} isAdmin={isAdmin} /> : null}
    </>
  );
}
