import { expect } from '@open-wc/testing';
import 'axe-core/axe.min.js';
import type { AgentChat } from '../../src/agent-chat.js';
import { createKey } from '../support/server.js';
import { mount, openLauncher, unmountAll } from '../support/element.js';

declare const axe: {
  run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ html: string }> }> }>;
};

/**
 * The widget beside a page's own landmarks (a banner, a main, a contentinfo): axe's
 * landmark rules on the whole document, inline and launcher, open and closed.
 */
const LANDMARK_RULES = [
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
  'landmark-unique',
  'region',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-complementary-is-top-level',
  'landmark-main-is-top-level',
];

let page: HTMLElement[] = [];
function pageLandmarks(): HTMLElement {
  const header = document.createElement('header');
  header.innerHTML = '<a href="#">Shop</a>';
  const main = document.createElement('main');
  main.innerHTML = '<h1>Products</h1><p>Things to buy.</p>';
  const footer = document.createElement('footer');
  footer.textContent = '© Shop';
  document.body.append(header, main, footer);
  page = [header, main, footer];
  return main;
}

async function landmarkViolations(): Promise<string[]> {
  const result = await axe.run(document, { runOnly: { type: 'rule', values: LANDMARK_RULES } });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`);
}

describe('landmarks beside the page own header, main and footer', () => {
  afterEach(() => {
    unmountAll();
    page.forEach((el) => el.remove());
  });

  it('a launcher, closed and open', async () => {
    pageLandmarks();
    const key = await createKey({});
    const el: AgentChat = await mount({ 'publishable-key': key, mode: 'launcher' });
    expect(await landmarkViolations()).to.deep.equal([]);
    await openLauncher(el);
    expect(await landmarkViolations()).to.deep.equal([]);
  });

  it('inline, in the page main', async () => {
    pageLandmarks();
    const key = await createKey({});
    await mount({ 'publishable-key': key });
    expect(await landmarkViolations()).to.deep.equal([]);
  });
});
