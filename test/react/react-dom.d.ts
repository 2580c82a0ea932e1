/**
 * The few react-dom entry points the tests use, typed here because @types/react-dom is not
 * installed (React itself is typed by @types/react).
 */
declare module 'react-dom' {
  export function flushSync<R>(fn: () => R): R;
}

declare module 'react-dom/client' {
  import type { ReactNode } from 'react';

  export interface Root {
    render(children: ReactNode): void;
    unmount(): void;
  }
  export function createRoot(container: Element | DocumentFragment): Root;
  export function hydrateRoot(
    container: Element | Document,
    children: ReactNode,
    options?: { onRecoverableError?(error: unknown): void },
  ): Root;
}

declare module 'react-dom/server' {
  import type { ReactNode } from 'react';

  export function renderToString(children: ReactNode): string;
}
