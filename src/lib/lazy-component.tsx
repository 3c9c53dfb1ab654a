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

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
type LazyComponents<Module, Name extends keyof Module> = { [N in Name]: (props: PropsOf<Module[N]>) => ReactNode };

/**
 * Several named exports of one module as lazy components (one chunk, loaded when the first
 * of them renders): `const { AddDialog, DeleteDialog } = lazyComponents(() => import("…"), ["AddDialog", "DeleteDialog"])`.
 */
export function lazyComponents<Module extends object, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  names: readonly Name[],
): LazyComponents<Module, Name> {
  const loadAny = load as unknown as () => Promise<Record<Name, ComponentType<object>>>;
  return Object.fromEntries(names.map((name) => [name, lazyComponent(loadAny, name)])) as unknown as LazyComponents<Module, Name>;
}
