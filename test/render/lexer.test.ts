import { expect, waitUntil } from '@open-wc/testing';
import { html, render } from 'lit';
import { lexer } from '../../src/markdown/chunks.js';
import { hasLexer, loadLexer, markdown, type MarkdownOptions } from '../../src/markdown/markdown.js';

// Own file, and in this order: the lexer is a chunk (src/chunks.ts `lexer`), and once a page
// has it, it stays. Prose is drawn without it; anything else as its text until it comes.

function mount(text: string, container: HTMLElement, options: MarkdownOptions = {}): HTMLElement {
  render(html`<div ${markdown(text, options)}></div>`, container);
  return container.firstElementChild as HTMLElement;
}

describe('markdown() before the lexer is here', () => {
  it('draws prose as the lexer would, without fetching it', () => {
    const container = document.createElement('div');
    const div = mount("Hi Ada! I'm the shop assistant. Ask me about shoes:\nI compare them.\n\nOr check sizes.", container);
    expect(div.innerHTML).to.equal(
      '<p dir="auto">Hi Ada! I\'m the shop assistant. Ask me about shoes:\nI compare them.</p><p dir="auto">Or check sizes.</p>',
    );
    expect(hasLexer()).to.equal(false);
  });

  it('shows markdown as its text, then draws it again when the lexer comes, on its own', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    try {
      const div = mount('Some **bold** words\n\n- one\n- two', container);
      // Its text, every character of it.
      expect([...div.querySelectorAll('p.plain')].map((p) => p.textContent)).to.deep.equal(['Some **bold** words\n\n- one\n- two']);
      expect(hasLexer()).to.equal(false);
      // The directive asked for it: no render of the container is needed to draw the markdown.
      await waitUntil(() => div.querySelector('strong'), 'drawn with the lexer once it came');
      expect(div.querySelector('strong')!.textContent).to.equal('bold');
      expect([...div.querySelectorAll('li')].map((li) => li.textContent)).to.deep.equal(['one', 'two']);
      expect(div.querySelector('p.plain')).to.equal(null);
      expect(lexer.module).to.not.equal(undefined);
    } finally {
      container.remove();
    }
  });

  it('draws prose the same with the lexer as without it', async () => {
    await loadLexer();
    const container = document.createElement('div');
    const div = mount("Hi Ada! I'm the shop assistant. Ask me about shoes:\nI compare them.\n\nOr check sizes.", container);
    expect(div.innerHTML).to.equal(
      '<p dir="auto">Hi Ada! I\'m the shop assistant. Ask me about shoes:\nI compare them.</p><p dir="auto">Or check sizes.</p>',
    );
  });
});
