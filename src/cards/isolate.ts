import { noChange, render } from 'lit-html';
import { isTemplateResult } from 'lit-html/directive-helpers.js';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit-html/directive.js';

/**
 * An error boundary for what a host hook renders (`cardRenderer`): the hook is called here,
 * and its result is rendered into the element this directive is bound to, on its own. A
 * hook that throws, returns something that is neither a template nor a DOM node, or whose
 * result fails while it is being put into the DOM (an ancestor of the widget, a broken
 * directive) shows `fallback` instead, for good, and `onError` hears about it. The rest
 * of the widget's update never sees the failure.
 *
 * `<li ${isolate(hook, () => hook(card), () => builtInCard, warn)}></li>`; `null`/`undefined` from the
 * hook means "use the fallback", as the contract says.
 */
type Host = { requestUpdate?(): void };

class IsolateDirective extends Directive {
  private __failed = false;
  /** The hook that failed: a new one (the host replaced it) gets its chance again. */
  private __failedHook: unknown;
  /** The first render has been scheduled (see `update`). */
  private __placed = false;

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) throw new Error('isolate() belongs in element position');
  }

  render(_hook: unknown, _produce: () => unknown, _fallback: () => unknown, _onError: (error: unknown) => void): unknown {
    return noChange;
  }

  override update(part: ElementPart, [hook, produce, fallback, onError]: Parameters<this['render']>): unknown {
    const box = part.element as HTMLElement;
    const host = part.options?.host as Host | undefined;
    if (this.__failed && hook !== this.__failedHook) {
      this.__failed = false;
      this.__slot = undefined;
    }
    // On the first render the box is still in the template's detached fragment: a node the
    // hook returned could be moved in there (the widget itself, an ancestor) and fail only
    // when Lit inserts the fragment, outside this boundary. Render once the box is placed,
    // then let the host update (its log follows what was added).
    if (!box.isConnected && !this.__placed) {
      this.__placed = true;
      queueMicrotask(() => {
        this.__draw(box, host, hook, produce, fallback, onError);
        host?.requestUpdate?.();
      });
      return noChange;
    }
    this.__draw(box, host, hook, produce, fallback, onError);
    return noChange;
  }

  private __draw(
    box: HTMLElement,
    host: Host | undefined,
    hook: unknown,
    produce: () => unknown,
    fallback: () => unknown,
    onError: (error: unknown) => void,
  ): void {
    // `host`: `this` in event listeners of the templates, as if the host had rendered them.
    const options = { host };
    if (!this.__failed) {
      try {
        const value = produce();
        if (value != null && !isTemplateResult(value) && !(value instanceof Node)) {
          throw new TypeError('a card renderer must return a TemplateResult, an HTMLElement, null or undefined');
        }
        // The widget or an ancestor of it cannot go inside it.
        if (value instanceof Node && host instanceof Node && value.contains(host)) {
          throw new TypeError('a card renderer returned the widget or an element around it');
        }
        render(value ?? fallback(), this.__container(box), options);
        return;
      } catch (error) {
        this.__failed = true;
        this.__failedHook = hook;
        onError(error);
        // Whatever the failed render left behind goes: the fallback gets a fresh container.
        this.__slot = undefined;
      }
    }
    try {
      render(fallback(), this.__container(box), options);
    } catch {
      box.replaceChildren();
      this.__slot = undefined;
    }
  }

  /** What is rendered into: a `display: contents` element, replaced after a failure (Lit keeps its render state on it). */
  private __slot: HTMLElement | undefined;
  private __container(box: HTMLElement): HTMLElement {
    if (!this.__slot) {
      this.__slot = document.createElement('div');
      this.__slot.className = 'card-slot';
      box.replaceChildren(this.__slot);
    }
    return this.__slot;
  }
}

export const isolate = directive(IsolateDirective);
