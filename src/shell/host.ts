import type { CSSResult, ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';

/**
 * The reactive base of `<agent-chat>`: properties that reflect attributes, batched
 * asynchronous updates and Lit's controller protocol, in the shape of Lit's ReactiveElement
 * (the same lifecycle: `willUpdate`, `update`, `updated`, `updateComplete`,
 * `scheduleUpdate`), without its generality (no `shouldUpdate`, `hasChanged`, `toAttribute`
 * converters, style fallbacks or dev-mode checks).
 *
 * A port, fenced: it follows @lit/reactive-element 2.1 (Lit 3.3), and
 * scripts/check-host.ts fails the build when the installed ReactiveElement is another
 * minor version (read its changes, then move the line below) or when the TypeScript
 * settings its decorators rely on change (`experimentalDecorators` on, and
 * `useDefineForClassFields` off: with it on, class fields would shadow the accessors and
 * properties would silently stop being reactive). Its contract tests run against it and
 * against ReactiveElement alike (test/element/host.test.ts).
 *
 * @follows @lit/reactive-element 2.1
 *
 * Why not ReactiveElement itself: the unopened launcher pays for every byte and every
 * microsecond of the shell on every page view (docs/architecture.md "Shell and panel").
 * Evaluating ReactiveElement and finalizing its properties was about half the shell's
 * script time at 4x CPU (BENCHMARKS.md "Unopened launcher"); this does what the element
 * uses in a fraction. The panel's controllers see a standard ReactiveControllerHost.
 */

/** How a property meets its attribute, as Lit's `@property()` options say it. */
export interface PropertyOptions {
  /** The attribute's name (default: the property's, lowercased); `false`: no attribute. */
  readonly attribute?: string | false;
  /** `Boolean`: present means true. */
  readonly type?: typeof Boolean;
  readonly converter?: { fromAttribute(value: string | null): unknown };
  /** Write the property back to the attribute (strings and booleans). */
  readonly reflect?: boolean;
}

/**
 * What changed since the last update, with the values before (undefined before the
 * first), keyed by the element's own property names as Lit's `PropertyValues<this>` is:
 * `changed.has('lang')` is checked, a misspelt key does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Lit's default: any key, unchecked
export interface PropertyValues<T = any> extends Map<PropertyKey, unknown> {
  has<K extends keyof T>(key: K): boolean;
  get<K extends keyof T>(key: K): T[K] | undefined;
}

type HostClass = typeof HostElement;

/**
 * Declares a reactive property, as Lit's decorator does (the custom-elements manifest
 * reads the same `@property()` shape): an accessor on the prototype whose writes request
 * an update, and its attribute observed.
 */
export function property(options: PropertyOptions = {}) {
  return (proto: object, key: string): void => {
    const ctor = proto.constructor as HostClass;
    // A subclass gets its own tables, starting from its parent's.
    if (!Object.hasOwn(ctor, 'reactive')) {
      ctor.reactive = new Map(ctor.reactive);
      ctor.attributeKeys = new Map(ctor.attributeKeys);
    }
    ctor.reactive.set(key, options);
    if (options.attribute !== false) ctor.attributeKeys.set(options.attribute ?? key.toLowerCase(), key);
    Object.defineProperty(proto, key, {
      get(this: HostElement) {
        return this.values.get(key);
      },
      set(this: HostElement, value: unknown) {
        const old = this.values.get(key);
        this.values.set(key, value);
        this.requestUpdate(key, old);
      },
      configurable: true,
      enumerable: true,
    });
  };
}

/** Internal reactive state: updates the element, has no attribute. */
export function state() {
  return property({ attribute: false });
}

/**
 * On a server (SSR, a framework's build step) there is no DOM: the module still loads, so
 * `import 'agent-chat'` is safe anywhere; the element only exists, and upgrades, in a browser.
 */
const ElementBase = (globalThis.HTMLElement ?? class {}) as typeof HTMLElement;

/** @internal The base of `<agent-chat>`, not an element of its own. */
export abstract class HostElement extends ElementBase implements ReactiveControllerHost {
  /** @internal The element's own stylesheet, adopted by its shadow root. */
  static styles?: CSSResult;
  /** @internal Every reactive property and its options (filled by `@property()`). */
  static reactive = new Map<string, PropertyOptions>();
  /** @internal Observed attribute → property. */
  static attributeKeys = new Map<string, string>();

  static get observedAttributes(): string[] {
    return [...this.attributeKeys.keys()];
  }

  /** @internal The shadow root, created on first connection. */
  renderRoot!: ShadowRoot;
  /** @internal */
  hasUpdated = false;
  /** @internal The reactive properties' values (the accessors read and write here). */
  readonly values = new Map<string, unknown>();
  private __changed: PropertyValues = new Map();
  private __reflecting: Set<string> | null = null;
  /** The property being written from its attribute (or the attribute from it): no echo. */
  private __syncing: string | null = null;
  private __pending = false;
  private __updatePromise: Promise<boolean>;
  private __enableUpdating!: (ready: boolean) => void;
  private __controllers: Set<ReactiveController> | null = null;
  /** Properties a host set on the element before it was defined (they hide the accessors). */
  private __early: Map<string, unknown> | null = null;

  constructor() {
    super();
    this.__updatePromise = new Promise((resolve) => (this.__enableUpdating = resolve));
    for (const key of (this.constructor as HostClass).reactive.keys()) {
      if (!Object.hasOwn(this, key)) continue;
      (this.__early ??= new Map()).set(key, (this as unknown as Record<string, unknown>)[key]);
      delete (this as unknown as Record<string, unknown>)[key];
    }
    this.requestUpdate();
  }

  /** Resolves after the pending update (true when no other update was requested meanwhile). */
  get updateComplete(): Promise<boolean> {
    return this.__updatePromise;
  }

  /** @internal */
  addController(controller: ReactiveController): void {
    (this.__controllers ??= new Set()).add(controller);
    if (this.renderRoot && this.isConnected) controller.hostConnected?.();
  }

  /** @internal */
  removeController(controller: ReactiveController): void {
    this.__controllers?.delete(controller);
  }

  connectedCallback(): void {
    if (!this.renderRoot) {
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      const sheet = (this.constructor as HostClass).styles?.styleSheet;
      if (sheet) root.adoptedStyleSheets = [sheet];
      this.renderRoot = root;
    }
    if (this.__early) {
      // Set by the host before the upgrade: applied as if set now, over the field defaults.
      for (const [key, value] of this.__early) (this as unknown as Record<string, unknown>)[key] = value;
      this.__early = null;
    }
    this.__enableUpdating(true);
    this.__controllers?.forEach((controller) => controller.hostConnected?.());
  }

  disconnectedCallback(): void {
    this.__controllers?.forEach((controller) => controller.hostDisconnected?.());
  }

  attributeChangedCallback(name: string, _old: string | null, value: string | null): void {
    const key = (this.constructor as HostClass).attributeKeys.get(name);
    if (key === undefined || this.__syncing === key) return;
    const options = (this.constructor as HostClass).reactive.get(key)!;
    this.__syncing = key;
    (this as unknown as Record<string, unknown>)[key] = options.converter
      ? options.converter.fromAttribute(value)
      : options.type === Boolean
        ? value !== null
        : value;
    this.__syncing = null;
  }

  /**
   * Asks for an update; with a property's name and old value, records the change (a value
   * that did not change asks for nothing; NaN equals NaN).
   */
  requestUpdate(key?: string, old?: unknown): void {
    if (key !== undefined) {
      const value = this.values.get(key);
      if (value === old || (value !== value && old !== old)) return;
      if (!this.__changed.has(key)) this.__changed.set(key, this.hasUpdated ? old : undefined);
      if ((this.constructor as HostClass).reactive.get(key)?.reflect && this.__syncing !== key) (this.__reflecting ??= new Set()).add(key);
    }
    if (!this.__pending) this.__updatePromise = this.__enqueueUpdate();
  }

  private async __enqueueUpdate(): Promise<boolean> {
    this.__pending = true;
    try {
      // After the previous update (and, first, the connection); batches this task's changes.
      await this.__updatePromise;
    } catch (error) {
      // A failed update is reported once, unhandled, and does not stop the next one.
      void Promise.reject(error);
    }
    const result = this.scheduleUpdate();
    if (result != null) await result;
    return !this.__pending;
  }

  /** When the update runs; an override may wait, then calls this. */
  protected scheduleUpdate(): void | Promise<unknown> {
    this.performUpdate();
  }

  protected performUpdate(): void {
    if (!this.__pending) return;
    const changed = this.__changed;
    try {
      this.willUpdate(changed);
      this.__controllers?.forEach((controller) => controller.hostUpdate?.());
      this.update(changed);
    } catch (error) {
      this.__markUpdated();
      throw error;
    }
    this.__controllers?.forEach((controller) => controller.hostUpdated?.());
    this.hasUpdated = true;
    this.updated(changed);
  }

  protected willUpdate(_changed: PropertyValues<this>): void {}

  /** Writes reflected properties to their attributes; an override renders after calling it. */
  protected update(_changed: PropertyValues<this>): void {
    const reflecting = this.__reflecting;
    this.__reflecting = null;
    reflecting?.forEach((key) => this.__reflect(key));
    this.__markUpdated();
  }

  protected updated(_changed: PropertyValues<this>): void {}

  private __reflect(key: string): void {
    const ctor = this.constructor as HostClass;
    const options = ctor.reactive.get(key)!;
    const attribute = options.attribute === undefined ? key.toLowerCase() : options.attribute;
    if (attribute === false) return;
    const value = this.values.get(key);
    const text = options.type === Boolean ? (value ? '' : null) : value == null ? null : String(value);
    this.__syncing = key;
    if (text === null) this.removeAttribute(attribute);
    else this.setAttribute(attribute, text);
    this.__syncing = null;
  }

  private __markUpdated(): void {
    this.__changed = new Map();
    this.__pending = false;
  }
}
