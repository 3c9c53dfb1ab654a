// A component whose code loads when it first renders (React.lazy over a module's named
// export), inside its own Suspense boundary that shows `fallback` meanwhile: the dialogs,
// receipts and forms a page does not need at first stay out of its first load.
import { lazy, Suspense, type ComponentType, type ReactNode } from "react";

export function lazyComponent<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
  fallback: ReactNode = null,
): (props: Props) => ReactNode {
  const Lazy = lazy(async (): Promise<{ default: ComponentType<Props> }> => ({ default: (await load())[name] }));
  return function LazyComponent(props: Props) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
