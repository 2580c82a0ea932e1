import { expect } from '@open-wc/testing';
import { html, render } from 'lit';
import { loadLexer, loadTailSupport, markdown, renderMarkdown, TRUSTED_TYPES_POLICY_NAME } from '../../src/markdown/markdown.js';

// The lexer and the guard for half-typed syntax (streaming: true) are chunks; the panel
// fetches them as a thread loads or a turn starts.
await Promise.all([loadLexer(), loadTailSupport()]);

// Own file: once a page enforces Trusted Types it cannot go back, so nothing else runs here.
describe('under require-trusted-types-for', () => {
  const supported = 'trustedTypes' in window;

  before(function () {
    if (!supported) this.skip();
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = `require-trusted-types-for 'script'; trusted-types ${TRUSTED_TYPES_POLICY_NAME} lit-html`;
    document.head.append(meta);
  });

  it('enforcement is really on', () => {
    const div = document.createElement('div');
    expect(() => {
      div.innerHTML = '<b>x</b>';
    }).to.throw();
  });

  it('renderMarkdown output can be assigned to innerHTML', () => {
    const div = document.createElement('div');
    div.innerHTML = renderMarkdown('**bold** [l](https://x.example)\n\n| a |\n|---|\n| 1 |') as unknown as string;
    expect(div.querySelector('strong')!.textContent).to.equal('bold');
    expect(div.querySelector('.table-scroll table')).not.to.equal(null);
  });

  it('the markdown() directive renders, streaming included', () => {
    const box = document.createElement('div');
    render(html`<div ${markdown('# T\n\nsome **bo', { streaming: true })}></div>`, box);
    render(html`<div ${markdown('# T\n\nsome **bold** ```x```', { streaming: false })}></div>`, box);
    expect(box.querySelector('h1')!.textContent).to.equal('T');
    expect(box.querySelector('strong')!.textContent).to.equal('bold');
  });
});
