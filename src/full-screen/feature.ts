import { chunk } from '../lazy.js';
import { defineFeature } from '../panel/spec.js';

/**
 * The launcher's full-screen panel: a launcher fetches it beside the panel without holding
 * a render for it; the panel shows at once and turns modal when the chunk lands (it renders
 * again then).
 */
export const feature = defineFeature(
  chunk(() => import('./index.js')),
  (module, { host, view }) =>
    new module.FullScreen(
      host,
      () => view.launcher && host.isOpen,
      () => host.renderRoot.querySelector<HTMLElement>('.panel'),
    ),
).with({
  on: ({ view }) => view.launcher,
  whenOn: 'fetch',
  mount: (use) => ({
    /** The panel is full screen and modal now. */
    active: (): boolean => !!use.control?.active,
    /** Tab and Shift+Tab wrap inside the panel while it is modal; returns whether it handled the key. */
    trap: (event: KeyboardEvent): boolean => !!use.control?.trap(event),
  }),
});
