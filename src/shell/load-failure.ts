import type { LauncherStrings } from './strings.js';

/**
 * The notice shown in place of the panel when its chunk cannot be fetched (offline, a
 * deploy that removed it, a blocked CDN): the same `part="error"` as every notice, with a
 * Retry that fetches the chunk again. Built with DOM calls, like the launcher: lit-html is
 * in the chunk that did not arrive.
 */
export class LoadFailure {
  readonly element = document.createElement('div');
  private readonly __title = document.createElement('strong');
  private readonly __retry = document.createElement('button');

  constructor(onRetry: () => void) {
    const { element, __title: title, __retry: retry } = this;
    element.className = 'notice load-failed';
    element.setAttribute('part', 'error');
    element.setAttribute('role', 'alert');
    const text = document.createElement('div');
    text.className = 'notice-text';
    text.append(title);
    const actions = document.createElement('div');
    actions.className = 'actions';
    retry.type = 'button';
    retry.className = 'text-button retry';
    retry.setAttribute('part', 'retry-button');
    retry.addEventListener('click', onRetry);
    actions.append(retry);
    element.append(text, actions);
  }

  sync(t: LauncherStrings, busy: boolean): void {
    this.__title.textContent = t.loadFailed;
    this.__retry.textContent = t.retry;
    this.__retry.disabled = busy;
  }
}
