/**
 * Checks a rendered `<agent-chat>` (any realm: the CSP test's widget lives in an iframe)
 * for anything agent content must never produce, and watches it while it renders so a
 * dangerous node that showed up for one streaming frame is caught too.
 */

/** Anywhere in the shadow root: the element's own markup never has these. */
const NEVER_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'base',
  'link',
  'meta',
  'portal',
  'template',
  'noscript',
]);
/** Inside agent content (rendered text, cards, suggestion chips, notice text). */
const NOT_IN_AGENT_CONTENT = new Set([
  'form',
  'input',
  'textarea',
  'select',
  'option',
  'button',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'dialog',
  'canvas',
]);
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'srcdoc',
  'data',
  'poster',
  'background',
  'srcset',
  'ping',
  'codebase',
  'cite',
]);
const AGENT_CONTENT = '[part~="text"], [part~="card"], [part~="suggestions"], .notice-text';
const BAD_SCHEME = /^(javascript|vbscript|data|livescript|mocha):/i;

function badUrl(value: string): boolean {
  // Judge the string as the URL parser will: it drops tab/newline and trims controls.
  // eslint-disable-next-line no-control-regex
  const cleaned = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  if (BAD_SCHEME.test(cleaned)) return true;
  try {
    return BAD_SCHEME.test(new URL(cleaned, 'https://base.example/').protocol);
  } catch {
    return false;
  }
}

function describe(el: Element): string {
  const part = el.getAttribute('part');
  return `<${el.localName}${part ? ` part="${part}"` : ''}${el.className && typeof el.className === 'string' ? ` class="${el.className}"` : ''}>`;
}

/** Problems of one element (not its subtree). */
function elementProblems(el: Element): string[] {
  const problems: string[] = [];
  const tag = el.localName;
  const inAgent = el.closest(AGENT_CONTENT) !== null;
  if (NEVER_TAGS.has(tag)) problems.push(`forbidden element ${describe(el)}`);
  if (inAgent && NOT_IN_AGENT_CONTENT.has(tag)) {
    const ownChip = tag === 'button' && (el.matches('button.copy[data-copy]') || el.matches('[part="suggestion"]'));
    if (!ownChip) problems.push(`${describe(el)} inside agent content`);
  }
  for (const attr of Array.from(el.attributes)) {
    const name = attr.localName.toLowerCase();
    if (name.startsWith('on')) problems.push(`event handler attribute ${attr.name} on ${describe(el)}`);
    if (URL_ATTRS.has(name) && badUrl(attr.value)) problems.push(`${attr.name}="${attr.value}" on ${describe(el)}`);
    if (name === 'srcdoc') problems.push(`srcdoc on ${describe(el)}`);
    if (inAgent && name === 'style') problems.push(`inline style on ${describe(el)}`);
    if (inAgent && (name === 'id' || name === 'name' || name === 'form' || (name === 'target' && attr.value !== '_blank'))) {
      problems.push(`${attr.name}="${attr.value}" on ${describe(el)} (clobbering/targeting)`);
    }
  }
  return problems;
}

/** Every problem in the shadow root right now. */
export function problemsIn(root: ShadowRoot | Element): string[] {
  return Array.from(root.querySelectorAll('*')).flatMap(elementProblems);
}

/** Records problems of every node added or attribute changed until `stop()`. */
export function watch(root: ShadowRoot): { problems: string[]; stop: () => string[] } {
  const problems: string[] = [];
  const check = (node: Node) => {
    if (node.nodeType !== 1) return;
    const el = node as Element;
    problems.push(...elementProblems(el), ...problemsIn(el));
  };
  const Observer = (root.ownerDocument.defaultView as typeof window).MutationObserver;
  const observer = new Observer((records) => {
    for (const r of records) {
      if (r.type === 'attributes') check(r.target);
      else r.addedNodes.forEach(check);
    }
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true });
  return {
    problems,
    stop: () => {
      for (const r of observer.takeRecords()) r.addedNodes.forEach(check);
      observer.disconnect();
      return [...new Set(problems)];
    },
  };
}

/** Text nodes containing `marker`; the marker must be shown, not only present. */
export function visibleText(root: ShadowRoot, marker: string): boolean {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.nodeValue?.includes(marker)) continue;
    const parent = n.parentElement;
    if (!parent) continue;
    const shown =
      typeof parent.checkVisibility === 'function'
        ? parent.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)
        : parent.getClientRects().length > 0;
    if (shown) return true;
  }
  return false;
}

/** Every attribute value and text in the shadow root, for "never appears" checks. */
export function allStrings(root: ShadowRoot): string {
  const out: string[] = [root.textContent ?? ''];
  for (const el of Array.from(root.querySelectorAll('*'))) for (const a of Array.from(el.attributes)) out.push(a.value);
  return out.join('\n');
}

declare global {
  interface Window {
    __xss?: () => void;
  }
}

/** Counts calls of `__xss()` in `win` (payloads call it when they manage to run). */
export function installTrap(win: Window = window): { calls: () => number } {
  let calls = 0;
  win.__xss = () => {
    calls += 1;
  };
  return { calls: () => calls };
}

/**
 * Lets what rendered content set off right away happen before a test judges that nothing
 * ran: an animation frame of the page (toggles, focus, an image refused by the policy),
 * then a task for the events those queue. The DOM checks (`problemsIn`) are what rule out
 * anything later: content that has no handler and no script URL cannot run one when a
 * slow image fails minutes later.
 */
export async function afterLateTriggers(root: ParentNode): Promise<void> {
  const view = (root as Node).ownerDocument?.defaultView ?? window;
  await new Promise((resolve) => view.setTimeout(resolve));
  if (view.document.visibilityState === 'visible') await new Promise((resolve) => view.requestAnimationFrame(resolve));
  await new Promise((resolve) => view.setTimeout(resolve));
}
