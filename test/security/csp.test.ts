import { expect } from '@open-wc/testing';
import type { AgentChat } from '../../src/agent-chat.js';
import type { RecordedViolation } from '../../demo/csp.js';
import { createKey, keyStats, loginToken, longThread } from '../support/server.js';
import { $, $$, input, sendByUser, until } from '../support/element.js';
import { corpusMarkdown, hostileCards, PAYLOADS } from './corpus.js';
import { afterLateTriggers, installTrap, problemsIn, visibleText } from './inspect.js';

/**
 * The widget on a page served with a strict CSP and Trusted Types enforced
 * (`/__demo/csp/<page>`: demo/csp.html with the header of demo/host/csp.ts). The page
 * loads the widget's source from this origin, compiled on request by the test runner.
 * Violations are read twice: the page's `securitypolicyviolation` events, and the reports
 * the browser posted to the page's `report-uri`, which the reference server keeps.
 */
describe('strict CSP + Trusted Types page', function () {
  this.timeout(20_000);
  const frames: HTMLIFrameElement[] = [];
  afterEach(() => {
    for (const f of frames.splice(0)) f.remove();
  });

  type PageWindow = Window & { cspViolations?: RecordedViolation[]; cspReady?: boolean; trustedTypes?: unknown };

  async function openPage(query: Record<string, string>): Promise<{ id: string; win: PageWindow; el: AgentChat }> {
    const id = `csp-${Math.random().toString(36).slice(2)}`;
    const frame = document.createElement('iframe');
    frame.style.width = '480px';
    frame.style.height = '640px';
    frame.src = `/__demo/csp/${id}?${new URLSearchParams(query)}`;
    document.body.append(frame);
    frames.push(frame);
    await until(() => (frame.contentWindow as PageWindow | null)?.cspReady, 'the CSP page did not load the widget', 10_000);
    const win = frame.contentWindow as PageWindow;
    const el = win.document.querySelector('agent-chat') as AgentChat;
    return { id, win, el };
  }

  async function reports(id: string): Promise<Array<Record<string, unknown>>> {
    const res = await fetch(`/__demo/csp/${id}/reports`);
    return ((await res.json()) as Array<{ 'csp-report'?: Record<string, unknown> }>).map((r) => r['csp-report'] ?? r);
  }

  const isStyleAttr = (directive: unknown) => directive === 'style-src-attr';

  /**
   * Waits until whatever the page has done so far has been reported, instead of for a
   * while: the test makes one deliberate violation of its own (an inline style attribute,
   * which the probe test above shows is refused and reported in both browsers) and waits
   * for its event and its report. Violations are dispatched and reported in order, so
   * everything before the sentinel has been seen by then; what is returned leaves it out
   * (the last `style-src-attr` of each list).
   */
  async function violationsSoFar(
    id: string,
    win: PageWindow,
  ): Promise<{ events: RecordedViolation[]; posted: Array<Record<string, unknown>> }> {
    const directive = (r: Record<string, unknown>) => r['effective-directive'] ?? r['violated-directive'];
    const events = win.cspViolations!.filter((v) => isStyleAttr(v.directive)).length;
    const posted = (await reports(id)).filter((r) => isStyleAttr(directive(r))).length;
    const sentinel = win.document.createElement('i');
    win.document.body.append(sentinel);
    sentinel.setAttribute('style', 'outline: 1px dashed');
    await until(
      () => win.cspViolations!.filter((v) => isStyleAttr(v.directive)).length > events,
      'the sentinel violation was not seen',
      8000,
    );
    await until(
      async () => (await reports(id)).filter((r) => isStyleAttr(directive(r))).length > posted,
      'the sentinel was not reported',
      8000,
    );
    sentinel.remove();
    const without = <T>(list: T[], isSentinel: (item: T) => boolean) => {
      const at = list.findLastIndex(isSentinel);
      return list.filter((_, i) => i !== at);
    };
    return {
      events: without(win.cspViolations!, (v) => isStyleAttr(v.directive)),
      posted: without(await reports(id), (r) => isStyleAttr(directive(r))),
    };
  }

  async function hostileConversation(query: Record<string, string>, { noViolations = true } = {}): Promise<PageWindow> {
    const corpus = corpusMarkdown();
    const key = await createKey({
      paceMs: 0,
      chunkChars: 24,
      welcome: corpus.text,
      suggestions: [...PAYLOADS.slice(0, 6)],
      replies: [
        { text: corpus.text, cards: hostileCards(), suggestions: [...PAYLOADS.slice(6, 12)] },
        { text: `Plain **bold** answer with a [safe link](https://ok.example/) and a table\n\n| a | b |\n|---|---|\n| 1 | 2 |` },
      ],
    });
    const { id, win, el } = await openPage({ key, ...query });
    const trap = installTrap(win);
    await until(() => $(el, '.welcome [part="text"]')?.textContent, 'welcome not shown');

    // A starter suggestion, then a typed message: a whole conversation.
    await until(() => $$(el, '[part="suggestion"]').length === 6, 'starters not shown');
    $$(el, '[part="suggestion"]')[0]!.click();
    await until(() => el.messages.some((m) => m.role === 'agent' && m.state === 'done') && el.status === 'idle', 'first reply');
    await el.updateComplete;
    expect($$(el, '[part~="card"]')).to.have.length(3);
    await sendByUser(el, 'and now something normal');
    await until(() => el.messages.filter((m) => m.role === 'agent' && m.state === 'done').length === 2, 'second reply');
    await el.updateComplete;

    // It works: markdown rendered through the `agent-chat` policy, the table, the link.
    const last = $$(el, '.message.agent:not(.welcome) [part="text"]').at(-1)!;
    expect(last.querySelector('strong')!.textContent).to.equal('bold');
    expect(last.querySelector('table')).to.exist;
    expect(last.querySelector('a')!.getAttribute('href')).to.equal('https://ok.example/');
    expect(visibleText(el.shadowRoot!, corpus.block.at(-1)!)).to.equal(true);
    expect(visibleText(el.shadowRoot!, 'THE-END')).to.equal(true);

    await afterLateTriggers(el.shadowRoot!);
    expect(problemsIn(el.shadowRoot!)).to.deep.equal([]);
    expect(trap.calls(), 'payload executed').to.equal(0);
    if (noViolations) {
      const { events, posted } = await violationsSoFar(id, win);
      expect(events, 'securitypolicyviolation events').to.deep.equal([]);
      expect(posted, 'report-uri posts').to.deep.equal([]);
    }
    return win;
  }

  /** Paths of the scripts a page fetched from dist/. */
  const serviceCalls = async (key: string) => (await keyStats(key)).requests.length;

  const bundleScripts = (win: PageWindow) =>
    win.performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => p.startsWith('/dist/'));

  it('a hostile conversation causes no violation and no execution, and the chat works', async () => {
    await hostileConversation({});
  });

  it('the same with allow-html: no execution, the chat works (violations: see the next test)', async () => {
    await hostileConversation({ 'allow-html': '' }, { noViolations: false });
  });

  // What ships is minified, in Lit's production mode and split into lazy chunks (DOMPurify
  // for allow-html): the same conversations against dist/ (`npm run verify` builds first).
  describe('the production bundle', () => {
    before(async function () {
      const built = await fetch('/dist/agent-chat.js', { method: 'HEAD' }).then(
        (r) => r.ok,
        () => false,
      );
      if (!built) {
        console.warn('csp.test: dist/agent-chat.js is missing; run `npm run build` to test the bundle.');
        this.skip();
      }
    });

    it('a hostile conversation causes no violation and no execution, and the chat works', async () => {
      const win = await hostileConversation({ bundle: '' });
      // The script tag's one-line module, the shell it imports, the panel (inline: at once)
      // and, fetched with the first message, the turns, the streaming code with its guard for
      // half-typed markdown (tail), the lexer (lex: the welcome is markdown), what a reply brings (cards, turn controls with the index of
      // branch relations they share with the history, the copy button, the small buttons'
      // stylesheet they share), the plain text of
      // its announcement (plain), the reading moves that place the question sent (reading),
      // the header's save button (export) and, if the text field took focus, prompt recall
      // (recall: a page in a background window, as Firefox runs tests, may get no focus
      // event); no other lazy chunk.
      const scripts = bundleScripts(win);
      expect(scripts.slice(0, 3)).to.deep.equal(['/dist/agent-chat.js', scripts[1], scripts[2]]);
      expect(scripts[1]).to.match(/^\/dist\/agent-chat-core-[\w-]+\.js$/);
      expect(scripts[2]).to.match(/^\/dist\/agent-chat-panel-[\w-]+\.js$/);
      expect(
        scripts
          .slice(3)
          .map((p) => /^\/dist\/agent-chat-([a-z-]+)-[\w-]{6}\.js$/.exec(p)?.[1])
          .filter((name) => name !== 'recall')
          .sort(),
      ).to.deep.equal([
        'branch-index',
        'branches',
        'cards',
        'copy',
        'export',
        'lex',
        'plain',
        'reading',
        'small-buttons',
        'stream',
        'tail',
        'turns',
      ]);
    });

    it('a first visit whose welcome is prose fetches no lexer; the first reply with markdown brings it', async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Some **bold** words.' }] });
      const { win, el } = await openPage({ key, bundle: '' });
      await until(() => el.status === 'idle' && $(el, '[part~="welcome"] [part="text"] p'), 'no welcome');
      // A task after the welcome's render: what it fetches for it it has asked for by then.
      await new Promise((resolve) => win.setTimeout(resolve));
      const lexers = () => bundleScripts(win).filter((p) => /^\/dist\/agent-chat-lex-[\w-]{6}\.js$/.test(p));
      expect(lexers()).to.deep.equal([]);
      await sendByUser(el, 'and in markdown?');
      await until(() => $(el, '.message.agent:not(.welcome) [part="text"] strong'), 'the reply is not drawn as markdown');
      expect(lexers()).to.have.length(1);
      expect(win.cspViolations).to.deep.equal([]);
    });

    it("a thread's load fetches what its replies show beside the transcript, not after it", async () => {
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Some **bold** words.' }] });
      const threadId = await longThread(key, 2);
      const { win, el } = await openPage({ key, bundle: '', 'thread-id': threadId });
      await until(
        () => el.status === 'idle' && $$(el, '.message.agent:not(.welcome) [part="copy-button"]').length === 2,
        'the transcript did not show with its buttons',
      );
      expect($$(el, '[part="regenerate-button"]')).to.have.length(2);
      // No render waits for the save button: it shows when its chunk is here.
      await until(() => $(el, '[part="export-button"]'), 'no save button');
      const entries = win.performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const at = (pattern: RegExp) => entries.find((e) => pattern.test(new URL(e.name).pathname))?.startTime ?? Infinity;
      const transcript = at(/^\/messaging\/v1\/threads\/[^/]+\/messages$/);
      expect(transcript).to.be.lessThan(Infinity);
      // Asked for as the load starts, before the token exchange that the transcript's request
      // waits for. (The copy button's and the turn controls' own chunks follow the stylesheet
      // and the branch index they read: see scripts/vite-chunk-retry.ts.)
      for (const name of ['export', 'small-buttons', 'branch-index']) {
        expect(at(new RegExp(`^/dist/agent-chat-${name}-[\\w-]{6}\\.js$`)), name).to.be.lessThan(transcript);
      }
      expect(win.cspViolations).to.deep.equal([]);
    });

    it('an unopened launcher loads the shell only and calls no service; intent fetches the panel', async () => {
      const key = await createKey({});
      const before = await serviceCalls(key);
      const { win, el } = await openPage({ key, bundle: '', mode: 'launcher' });
      await el.updateComplete;
      // A task after the shell's first render: what it fetches at load it has asked for by then.
      await new Promise((resolve) => win.setTimeout(resolve));
      expect(bundleScripts(win)).to.have.length(2);
      expect($(el, '[part="launcher"]')).to.exist;
      expect(await serviceCalls(key)).to.equal(before);
      // A pointer over the launcher: the panel arrives, still without a service call.
      $(el, '[part="launcher"]')!.dispatchEvent(new PointerEvent('pointerenter'));
      await until(() => $(el, '[part="panel"]'), 'the panel did not arrive on intent');
      expect(bundleScripts(win).some((p) => /agent-chat-panel-/.test(p))).to.equal(true);
      expect(await serviceCalls(key)).to.equal(before);
      el.open();
      await until(() => el.status === 'idle' && $(el, '[part~="welcome"]'), 'no welcome after opening');
      expect(await serviceCalls(key)).to.be.greaterThan(before);
      expect(win.cspViolations).to.deep.equal([]);
    });

    it('a panel chunk that cannot be fetched: a notice with Retry, and the launcher keeps working', async () => {
      const key = await createKey({});
      const { el } = await openPage({ key, bundle: 'dist-without-panel', mode: 'launcher' });
      const launcher = $(el, '[part="launcher"]') as HTMLButtonElement;
      launcher.click();
      await until(() => $(el, '[part="error"]'), 'no notice for the missing panel');
      expect(el.isOpen).to.equal(true);
      expect($(el, '[part="error"]')!.textContent).to.contain('Part of the chat could not load');
      const retry = $(el, '[part="retry-button"]') as HTMLButtonElement;
      expect(!!retry).to.equal(true);
      retry.click();
      await until(() => !retry.disabled, 'retry did not settle');
      expect(!!$(el, '[part="error"]'), 'still failing, still said').to.equal(true);
      launcher.click();
      await el.updateComplete;
      expect(el.isOpen).to.equal(false);
      expect(!$(el, '[part="error"]'), 'the notice belongs to the open panel').to.equal(true);
      expect(launcher.getAttribute('aria-expanded')).to.equal('false');
    });

    it('the same with allow-html (its sanitiser chunk loads under the policy)', async () => {
      const win = await hostileConversation({ bundle: '', 'allow-html': '' }, { noViolations: false });
      const scripts = bundleScripts(win);
      expect(scripts[0]).to.equal('/dist/agent-chat.js');
      expect(
        scripts.some((p) => /^\/dist\/agent-chat-html-policy-[\w-]+\.js$/.test(p)),
        scripts.join(),
      ).to.equal(true);
    });

    it('the hand-off arrives as a chunk with its stylesheet, under the policy, only with `channels`', async () => {
      const plain = await openPage({ key: await createKey({}), bundle: '' });
      await until(() => plain.el.status === 'idle', 'not ready');
      expect(
        bundleScripts(plain.win).some((p) => p.includes('handoff')),
        'loaded without channels',
      ).to.equal(false);
      const key = await createKey({});
      const { id, win, el } = await openPage({ key, bundle: '', channels: 'whatsapp,sms' });
      await until(() => $(el, '[part="channel-button"]'), 'no hand-off button');
      $(el, '[part="channel-button"]')!.click();
      await until(() => $(el, '#channel-phone'), 'the form did not open');
      const form = $(el, '[part="channel-form"]')!;
      // The form's own rules (a sheet adopted from the chunk), not the browser's defaults.
      expect(win.getComputedStyle(form).display).to.equal('flex');
      expect(bundleScripts(win).filter((p) => /agent-chat-handoff-/.test(p))).to.have.length(1);
      expect(el.shadowRoot!.activeElement, 'focus moves into the form').to.equal($(el, '#channel-form input:checked'));
      expect(win.cspViolations).to.deep.equal([]);
      expect(await reports(id)).to.deep.equal([]);
    });

    it('the builder preview arrives as a chunk with its stylesheet, under the policy, only with `preview`', async () => {
      const key = await createKey({ paceMs: 0 });
      const { id, win, el } = await openPage({ key, bundle: '', preview: '' });
      el.tokenProvider = () => loginToken(key);
      await until(() => el.status === 'idle', 'not ready');
      await sendByUser(el, 'hello');
      await until(() => $(el, '.message.agent:not(.welcome) [part="trace-button"]'), 'no Trace button');
      expect(bundleScripts(win).filter((p) => /agent-chat-preview-/.test(p))).to.have.length(1);
      $(el, '.message.agent:not(.welcome) [part="trace-button"]')!.click();
      await until(() => $(el, 'dialog[part="trace"] .trace-step'), 'the trace is not shown');
      // The trace's own rules (a sheet adopted from the chunk), not the browser's defaults.
      expect(win.getComputedStyle($(el, '.trace-steps')!).display).to.equal('grid');
      expect(win.cspViolations).to.deep.equal([]);
      expect(await reports(id)).to.deep.equal([]);
    });

    it('a hand-off whose chunk cannot be fetched costs the hand-off, not the chat', async () => {
      const key = await createKey({});
      const { el } = await openPage({ key, bundle: 'dist-without-lazy', channels: 'sms' });
      // The first render waits (briefly) for the hand-off chunk, which then fails.
      await until(() => $(el, '[part="input"]') && el.status === 'idle', 'not ready');
      expect($(el, '[part="channel-button"]')).to.equal(null);
      await sendByUser(el, 'still here?');
      await until(() => el.messages.some((m) => m.role === 'agent' && m.state === 'done'), 'no reply');
    });

    it('cards whose chunk cannot be fetched: the reply shows, with a notice in their place, and chat goes on', async () => {
      const cards = [{ json_data: { entity: { title: 'Trail shoe', price: 120 } } }];
      const key = await createKey({ paceMs: 0, replies: [{ text: 'Here are shoes.', cards }, { text: 'Still here.' }] });
      const { el } = await openPage({ key, bundle: 'dist-without-lazy' });
      await until(() => el.status === 'idle', 'not ready');
      await sendByUser(el, 'shoes?');
      await until(() => $(el, '.message.agent:not(.welcome) [role="alert"]'), 'no notice for the missing chunk');
      expect($(el, '.message.agent:not(.welcome) [part="text"]')!.textContent).to.contain('Here are shoes.');
      expect($(el, '.message.agent:not(.welcome) [role="alert"]')!.textContent).to.contain('could not be shown');
      expect($(el, '[part~="card"]')).to.equal(null);
      await sendByUser(el, 'and now?');
      await until(() => el.messages.at(-1)?.text === 'Still here.', 'no next reply');
    });

    it('a lexer that cannot be fetched: markdown shows as its text, every character of it, and the chat goes on', async () => {
      const key = await createKey({
        paceMs: 0,
        welcome: 'Ask me about **shoes**.',
        replies: [{ text: 'A *list*:\n\n- one\n- two' }, { text: 'Still here.' }],
      });
      const { el } = await openPage({ key, bundle: 'dist-without-lazy' });
      // The first render waits (briefly) for the lexer, which then fails.
      await until(() => el.status === 'idle' && $(el, '[part~="welcome"] [part="text"] p'), 'no welcome');
      expect($(el, '[part~="welcome"] [part="text"]')!.textContent).to.equal('Ask me about **shoes**.');
      await sendByUser(el, 'a list?');
      await until(() => el.messages.some((m) => m.role === 'agent' && m.state === 'done'), 'no reply');
      await el.updateComplete;
      expect($$(el, '.message.agent:not(.welcome) [part="text"] p').map((p) => p.textContent)).to.deep.equal(['A *list*:\n\n- one\n- two']);
      // Said, with Retry, as any part of the chat that could not load.
      expect($(el, '[part="error"]')!.textContent).to.contain('Part of the chat could not load');
      await sendByUser(el, 'and now?');
      await until(() => el.messages.at(-1)?.text === 'Still here.', 'no next reply');
    });

    it('a WebSocket turn whose chunk cannot be fetched is said as such, and keeps the text', async () => {
      const key = await createKey({});
      const { el } = await openPage({ key, bundle: 'dist-without-lazy', transport: 'websocket' });
      await until(() => el.status === 'idle', 'not ready');
      await sendByUser(el, 'keep this text');
      await until(() => $(el, '[part="error"]'), 'no notice');
      expect($(el, '[part="error"]')!.textContent).to.contain('Part of the chat could not load');
      expect(input(el).value).to.equal('keep this text');
      expect($(el, '[part="retry-button"]')).to.exist;
    });
  });

  // With `allow-html`, agent HTML is parsed by DOMPurify through DOMParser, and Chromium
  // checks that inert document against the host's CSP: inline handlers and <style> would be
  // reported as violations (script-src-attr, style-src-elem, style-src-attr) on the host
  // page although nothing runs. markdown.ts drops them before any parser sees them.
  it('with allow-html, hostile HTML triggers no CSP reports on the host page', async () => {
    const key = await createKey({ welcome: 'Hi <img src=x onerror=__xss()> <style>p{}</style> <b style="color:red">b</b> end' });
    const { id, win, el } = await openPage({ key, 'allow-html': '' });
    await until(() => $(el, '.welcome [part="text"]')?.textContent, 'welcome not shown');
    expect($(el, '.welcome [part="text"] b')).to.exist;
    await afterLateTriggers(el.shadowRoot!);
    const { events, posted } = await violationsSoFar(id, win);
    expect(events.map((v) => `${v.directive} from ${v.sourceFile.replace(location.origin, '')}`)).to.deep.equal([]);
    expect(posted).to.deep.equal([]);
  });
});
