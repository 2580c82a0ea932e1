import { noChange, render } from 'lit';
import { isTemplateResult } from 'lit/directive-helpers.js';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

/**
 * An error boundary for what a host hook renders (`cardRenderer`): the hook is called here,
 * and its result is rendered into the element this directive is bound to, on its own. A
 * hook that throws, returns something that is neither a template nor a DOM node, or whose
 * result fails while it is being put into the DOM (an ancestor of the widget, a broken
 * directive) shows `fallback` instead, for good, and `onError` hears about it. The rest
 * of the widget's update never sees the failure.
 *
 * `<li ${isolate(() => hook(card), () => builtInCard, warn)}></li>`; `null`/`undefined` from the
 * hook means "use the fallback", as the contract says.
 */
class IsolateDirective extends Directive {
  private failed = false;
  /** The first render has been scheduled (see `update`). */
  private placed = false;

  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) throw new Error('isolate() belongs in element position');
  }

  render(_produce: () => unknown, _fallback: () => unknown, _onError: (error: unknown) => void): unknown {
    return noChange;
  }

  override update(part: ElementPart, [produce, fallback, onError]: Parameters<this['render']>): unknown {
    const box = part.element as HTMLElement;
    // On the first render the box is still in the template's detached fragment: a node the
    // hook returned could be moved in there (the widget itself, an ancestor) and fail only
    // when Lit inserts the fragment, outside this boundary. Render once the box is placed.
    if (!box.isConnected && !this.placed) {
      this.placed = true;
      queueMicrotask(() => this.draw(box, produce, fallback, onError));
      return noChange;
    }
    this.draw(box, produce, fallback, onError);
    return noChange;
  }

  private draw(box: HTMLElement, produce: () => unknown, fallback: () => unknown, onError: (error: unknown) => void): void {
    if (!this.failed) {
      try {
        const value = produce();
        if (value != null && !isTemplateResult(value) && !(value instanceof Node)) {
          throw new TypeError('a card renderer must return a TemplateResult, an HTMLElement, null or undefined');
        }
        render(value ?? fallback(), box);
        return;
      } catch (error) {
        this.failed = true;
        onError(error);
        // Whatever the failed render left behind goes; the fallback gets a fresh container.
        box.replaceChildren(document.createElement('div'));
      }
    }
    const inner = box.firstElementChild as HTMLElement;
    try {
      render(fallback(), inner);
    } catch {
      inner.replaceChildren();
    }
  }
}

export const isolate = directive(IsolateDirective);
