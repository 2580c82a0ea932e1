import type { ReactiveController, ReactiveControllerHost } from '@lit/reactive-element';

/** Where focus was before an update, to find the nearest equivalent if the update takes it away. */
interface FocusAnchor {
  element: HTMLElement;
  /** Index among the log's messages (-1 outside them). */
  index: number;
  label: string;
  /** `part` of the group the control was in (the branch navigator). */
  group: string;
  inMeta: boolean;
  /** `part` of the enclosing `[data-refocus]` box (the history, the hand-off form), if any. */
  box: string;
}

type Host = ReactiveControllerHost & HTMLElement & { readonly renderRoot: HTMLElement | DocumentFragment };

/**
 * Re-rendering may remove or disable the focused control (send becomes stop, a chip or the
 * retry button goes away, a version switch replaces the messages). The browser would then
 * drop focus to <body>, which sends keyboard and screen-reader users back to the top of the
 * page; this controller puts it somewhere sensible instead. It runs before the element's
 * `updated()`, which may still move focus on purpose.
 */
export class FocusKeeper implements ReactiveController {
  private __anchor: FocusAnchor | null = null;
  private __pending: { index: number; label: string; group: string } | null = null;

  /** `fallback` is where focus goes when nothing nearer fits (the text field, or the closed launcher's button). */
  constructor(
    private readonly __host: Host,
    private readonly __fallback: () => HTMLElement | null | undefined,
  ) {
    __host.addController(this);
  }

  /** The welcome message and every rendered message, in order (what the arrow keys move through). */
  messages(): HTMLElement[] {
    return Array.from(this.__host.renderRoot.querySelectorAll<HTMLElement>('.log-content > .message'));
  }

  /** The reader moved on (typed, clicked elsewhere): do not pull focus back later. */
  forget(): void {
    this.__pending = null;
  }

  hostUpdate(): void {
    const element = this.__host.shadowRoot?.activeElement as HTMLElement | null | undefined;
    if (!element) {
      this.__anchor = null;
      return;
    }
    const message = element.closest<HTMLElement>('.log-content > .message');
    this.__anchor = {
      element,
      index: message ? this.messages().indexOf(message) : -1,
      label: element.getAttribute('aria-label') ?? '',
      group: element.closest('[role="group"]')?.getAttribute('part') ?? '',
      inMeta: !!element.closest('.meta'),
      box: element.closest('[data-refocus]')?.getAttribute('part') ?? '',
    };
  }

  hostUpdated(): void {
    const anchor = this.__anchor;
    this.__anchor = null;
    if (anchor && lostFocus(anchor.element)) this.__rescue(anchor);
    else this.__restorePending();
  }

  private __rescue(anchor: FocusAnchor): void {
    const root = this.__host.renderRoot;
    let target: HTMLElement | null | undefined = null;
    // A closed launcher panel hides everything but the fallback (its button).
    if (root.querySelector('[part="panel"][hidden]')) {
      this.__fallback()?.focus();
      return;
    }
    if (anchor.inMeta && anchor.index >= 0) {
      // A turn control (regenerate, edit, version arrows): the same control of the same
      // message, else another one of its controls, else the message itself.
      const message = this.messages()[anchor.index];
      if (message) target = turnControl(message, anchor.label, anchor.group);
      // The messages are reloading (another version of the thread): come back when they are there.
      else this.__pending = { index: anchor.index, label: anchor.label, group: anchor.group };
    } else if (anchor.box) {
      // A box (the history, the hand-off form) names where focus goes when a control in it
      // goes away (a removed entry, a step of the form): its `data-refocus`, else its first button.
      const box = root.querySelector<HTMLElement>(`[part="${anchor.box}"]`);
      target = box?.querySelector<HTMLElement>(box.dataset.refocus!) ?? box?.querySelector<HTMLElement>('button:not(:disabled)');
    }
    (target ?? this.__fallback())?.focus();
  }

  /** After a version switch the messages come back; focus returns to the control that was used. */
  private __restorePending(): void {
    const pending = this.__pending;
    if (!pending) return;
    if (this.__host.shadowRoot?.activeElement !== this.__fallback()) {
      this.__pending = null;
      return;
    }
    const message = this.messages()[pending.index];
    if (!message) return;
    this.__pending = null;
    turnControl(message, pending.label, pending.group).focus();
  }
}

/**
 * The nearest equivalent of a turn control that went away: the same control, else another
 * of its group (the other version arrow), else another control of the turn, else the message.
 */
function turnControl(message: HTMLElement, label: string, group: string): HTMLElement {
  const controls = Array.from(message.querySelectorAll<HTMLButtonElement>('.meta button')).filter((b) => !b.disabled);
  return (
    controls.find((b) => b.getAttribute('aria-label') === label) ??
    (group ? controls.find((b) => b.closest('[role="group"]')?.getAttribute('part') === group) : undefined) ??
    controls[0] ??
    message
  );
}

/** Removed, hidden or disabled: the browser no longer keeps focus there. */
function lostFocus(element: HTMLElement): boolean {
  return !element.isConnected || (element as HTMLButtonElement).disabled === true || !!element.closest('[hidden]');
}
