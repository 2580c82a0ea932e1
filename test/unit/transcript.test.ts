import fc from 'fast-check';
import type { Token, Tokens } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileName, transcriptJson, transcriptMarkdown } from '../../src/export/transcript.js';
import { decodeEntities } from '../../src/markdown/entities.js';
import { lexMarkdown } from '../../src/markdown/lex.js';
import { literalMarkdown, loadRewrite } from '../../src/markdown/rewrite.js';
import { safeUrl } from '../../src/security/url.js';
import { type ChatMessage, fromTranscript } from '../../src/state/messages.js';

// Replies are lexed as the view lexes them: with the lexer's chunk.
beforeAll(() => loadRewrite(false));

const message = (m: Partial<ChatMessage> & Pick<ChatMessage, 'role' | 'text'>): ChatMessage => ({
  key: `${m.role}-${Math.random()}`,
  cards: [],
  suggestions: [],
  state: 'done',
  ...m,
});

const OPTIONS = {
  title: 'Tents',
  user: 'You',
  agent: 'Agent',
  truncated: 'Too long to show in full',
  image: 'Attached image',
  locale: 'en',
};

/** Saving the conversation (src/export/transcript.ts): what the file and `exportTranscript()` hold. */
describe('the conversation as a document', () => {
  it('JSON: each message in the wire shape, the question sent by the user in use; a reply with nothing yet is left out', () => {
    const json = transcriptJson(
      [
        message({ role: 'user', text: 'hi', id: 'a'.repeat(24), createdAt: '2025-01-02T10:00:00.000Z' }),
        message({ role: 'agent', text: 'Hello', id: 'a'.repeat(24), suggestions: ['More?'], truncated: true }),
        message({ role: 'agent', text: '', state: 'streaming' }),
      ],
      'u-1',
    );
    expect(JSON.parse(json)).toEqual([
      {
        id: 'a'.repeat(24),
        created_at: '2025-01-02T10:00:00.000Z',
        text: 'hi',
        sender: { type: 'user', id: 'u-1' },
        cards: [],
        followup_suggestions: [],
      },
      { id: 'a'.repeat(24), text: 'Hello', sender: { type: 'agent' }, cards: [], followup_suggestions: ['More?'], truncated: true },
    ]);
  });

  it("JSON: a transcript's question keeps its own sender; one sent here is the user in use's", () => {
    const [other] = fromTranscript([{ id: 'b'.repeat(24), text: 'theirs', sender: { type: 'user', id: 'u-2' }, cards: [] }]);
    const json = JSON.parse(transcriptJson([other!, message({ role: 'user', text: 'mine' })], 'u-1')) as Array<{ sender: unknown }>;
    expect(json.map((m) => m.sender)).toEqual([
      { type: 'user', id: 'u-2' },
      { type: 'user', id: 'u-1' },
    ]);
  });

  it("Markdown: a question as it was typed, a reply's markdown as written, cards as a list, a cut reply said", () => {
    const markdown = transcriptMarkdown(
      [
        message({ role: 'user', text: '*not* <b>bold</b> # [x]', createdAt: '2025-01-02T10:00:00.000Z' }),
        message({
          role: 'agent',
          text: 'Take **this**:',
          truncated: true,
          cards: [
            { json_data: { entity: { Product_Name: 'Dome [2p]', URL: 'https://shop.example/a b' } } },
            { json_data: { entity: { label: 'No link' } } },
            { json_data: { entity: { link: 'javascript:alert(1)' } } },
            { json_data: { entity: { price: 3 } } },
          ],
        }),
      ],
      OPTIONS,
    );
    const [title, question, reply] = markdown.split(/\n\n(?=## )/);
    expect(title).toBe('# Tents');
    expect(question).toMatch(/^## You · .*2025.*\n\n\\\*not\\\* \\<b\\>bold\\<\/b\\> \\# \\\[x\\\]$/);
    expect(reply).toBe(
      '## Agent\n\nTake **this**:\n\n- [Dome &#91;2p&#93;](<https://shop.example/a%20b>)\n- No link\n\n_Too long to show in full_\n',
    );
  });

  it("a card's link cannot end its destination early: < and > of a mailto: or tel: URL are escaped", () => {
    const markdown = transcriptMarkdown(
      [
        message({
          role: 'agent',
          text: 'Write to us:',
          cards: [{ json_data: { entity: { title: 'Mail', url: 'mailto:a@b.c>)[x](javascript:alert(1)' } } }],
        }),
      ],
      OPTIONS,
    );
    expect(markdown).toContain('- [Mail](<mailto:a@b.c%3E%29%5Bx%5D%28javascript:alert%281%29>)');
  });

  it('a file name from the title, safe anywhere; the date when there is none to use', () => {
    const day = new Date(2025, 0, 2);
    expect(fileName('Which tent: "dome"/tunnel?', day)).toBe('Which tent dome tunnel.md');
    expect(fileName('  ...hidden. ', day)).toBe('hidden.md');
    expect(fileName('evil\u202Edm.exe', day)).toBe('evil dm.exe.md');
    expect(fileName('', day)).toBe('chat-2025-01-02.md');
    expect(fileName('???', day)).toBe('chat-2025-01-02.md');
    expect(fileName('con', day)).toBe('chat-2025-01-02.md');
    // Device names, whatever follows them, on every platform that has them.
    for (const device of ['nul.tar', 'CON', 'con .txt', 'Aux.', 'COM1', 'com¹', 'LPT9.log', 'prn..', 'conin$', 'CONOUT$.x', ' nul '])
      expect(fileName(device, day), device).toBe('chat-2025-01-02.md');
    expect(fileName('console', day)).toBe('console.md');
    expect(fileName('com10 notes', day)).toBe('com10 notes.md');
    expect(fileName('tent. ', day)).toBe('tent.md');
    expect(fileName('a\ud800b', day), 'a lone surrogate cannot be written').toBe('a b.md');
    expect(fileName('😀'.repeat(100), day)).toBe(`${'😀'.repeat(80)}.md`);
  });

  it('whatever the title: one name, with nothing a file system refuses or a reader could be fooled by', () => {
    // Text with the characters that matter among any others (fast-check's full-Unicode strings are slow to make).
    const titles = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.constantFrom('.', ' ', '/', '\\', ':', '\u202e', '\u0000', '\n', '\u2028', '😀', 'con', 'nul', 'COM1', 'é', '\udc00'),
        ),
        {
          maxLength: 40,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(titles, (title) => {
        const name = fileName(title, new Date(2025, 0, 2));
        expect(name.endsWith('.md')).toBe(true);
        const base = name.slice(0, -3);
        expect(base).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}<>:"/\\|?*]/u);
        expect(base).not.toMatch(/^[\s.]|[\s.]$/);
        expect(Array.from(base).length).toBeLessThanOrEqual(80);
        expect(base.length).toBeGreaterThan(0);
        expect(base).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d) *(\.|$)/i);
      }),
    );
  });
});

/** Every token of a lexed document, depth first (the lexer is the view's: marked under lex.ts's limits). */
function tokensOf(markdown: string): Tokens.Generic[] {
  const all: Tokens.Generic[] = [];
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const token of (tokens ?? []) as Tokens.Generic[]) {
      all.push(token);
      walk(token.tokens);
      walk(token.items as Token[] | undefined);
      for (const cell of (token.header as Tokens.TableCell[] | undefined) ?? []) walk(cell.tokens);
      for (const row of (token.rows as Tokens.TableCell[][] | undefined) ?? []) for (const cell of row) walk(cell.tokens);
    }
  };
  // As a reader that renders raw HTML (a code host's preview) reads it.
  walk(lexMarkdown(markdown, true));
  return all;
}

/** Replies written to get something past the export: scripts, schemes, remote images, a speaker of their own. */
const HOSTILE = [
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](<javascript:alert(1)>)',
  '[click]( javascript:alert(1) "t")',
  '[click](java\tscript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](&#x6A;avascript&#x3A;alert(1))',
  '[click](javascript&colon;alert(1))',
  '[click](jav&#x09;ascript:alert(1))',
  '[click](%6Aavascript:alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](file:///etc/passwd) [b](blob:https://x.example/1)',
  '[click][evil]\n\n[evil]: javascript:alert(1)',
  '[evil]\n\n[evil]: vbscript:msgbox(1) "t"',
  '<javascript:alert(1)>',
  '<vbscript:msgbox(1)> <data:text/html,alert(1)>',
  '![x](javascript:alert(1))',
  '![pixel](https://tracker.example/p.gif?u=1)',
  '![](https://tracker.example/p.gif)',
  '![a][img]\n\n[img]: https://tracker.example/ref.gif',
  '[![img](https://tracker.example/a.png)](https://shop.example/)',
  '<img src=x onerror=alert(1)>',
  '<img src="https://tracker.example/p.gif">',
  '<script>alert(1)</script>',
  '<iframe src="javascript:alert(1)"></iframe> <svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a> <style>*{display:none}</style>',
  '<!-- c --> <div onclick="x()">y</div>\n\n<div>\n\n[z](javascript:1)\n\n</div>',
  '&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62;',
  '\n\n**You** · 12:00\n\nPlease type your card number here.',
  '# You · 12:00\n\nfake',
  'You · 12:00\n===\n\nfake',
  'You · 12:00\n---\n\nfake',
  '## Tents\n\n## You',
  '```\n## You · 12:00\n```',
  '~~~\n## You · 12:00\n~~~',
  '    ## You · 12:00',
  '> ## You · 12:00\n>\n> **You** · 12:00',
  '- ## You · 12:00\n\n1. # Agent',
  '<h2>You · 12:00</h2>',
  '| a | [b](javascript:alert(1)) |\n|---|---|\n| <img src=x onerror=y> | ![t](https://t.example/p.gif) |',
  '*[a](javascript:alert(1))* **<https://ok.example>** `[c](javascript:1)`',
  '[a](javascript:alert(1)',
  'Look!![a][img] and \\![b](https://x.example/)\n\n[img]: https://tracker.example/ref.gif',
  'x\\\n## You · 12:00',
];

const SPEAKERS = ['# Tents', '## You', '## Agent'];

/** The exported file of a question and a reply, and what a Markdown reader makes of it. */
function exported(reply: string, question = 'q') {
  const markdown = transcriptMarkdown([message({ role: 'user', text: question }), message({ role: 'agent', text: reply })], OPTIONS);
  return { markdown, tokens: tokensOf(markdown) };
}

/** What holds for any reply, however hostile. */
function expectSafe(reply: string): string {
  const { markdown, tokens } = exported(reply);
  for (const t of tokens) {
    expect(t.type, `raw HTML in ${JSON.stringify(markdown)}`).not.toBe('html');
    expect(t.type, `an image in ${JSON.stringify(markdown)}`).not.toBe('image');
    if (t.type === 'link') {
      const href = decodeEntities(t.href as string);
      expect(safeUrl(href), `${href} in ${JSON.stringify(markdown)}`).toMatch(/^(https?|mailto|tel):/);
    }
  }
  // The title, then one heading per message: no other line of the file starts with `#` or
  // `##`, and none of the reply's is a heading of level 1 or 2 (a reply's start at 3).
  expect(markdown.split('\n').filter((line) => /^#{1,2}(?!#)/.test(line))).toEqual(SPEAKERS);
  const headings = tokens.filter((t) => t.type === 'heading');
  expect(headings.filter((t) => (t.depth as number) <= 2).map((t) => `${'#'.repeat(t.depth as number)} ${t.text as string}`)).toEqual(
    SPEAKERS,
  );
  return markdown;
}

describe('a saved transcript is as safe as the view', () => {
  it.each(HOSTILE)('a reply cannot get a script, an unsafe link, a remote image or a speaker into the file: %j', (reply) => {
    expectSafe(reply);
  });

  it.each([
    ['[click](javascript:alert(1)) [ok](https://ok.example/a)', 'click [ok](<https://ok.example/a>)'],
    ['[click](&#106;avascript:alert(1))', 'click'],
    ['[x][evil]\n\n[evil]: javascript:alert(1)', 'x'],
    ['<javascript:alert(1)>', 'javascript:alert(1)'],
    ['![pixel](https://tracker.example/p.gif?u=1)', '[pixel](<https://tracker.example/p.gif?u=1>)'],
    ['![](https://tracker.example/p.gif)', '[https://tracker.example/p.gif](<https://tracker.example/p.gif>)'],
    ['![x](javascript:alert(1))', 'x'],
    ['<img src=x onerror=alert(1)>', '\\<img src=x onerror=alert(1)\\>'],
    ['<script>alert(1)</script>', '\\<script\\>alert(1)\\</script\\>'],
    ['&lt;b&gt; &amp;', '\\<b\\> \\&'],
    ['\n\n**You** · 12:00\n\nhi', '**You** · 12:00\n\nhi'],
    ['# You · 12:00', '### You · 12:00'],
    ['You\n===', '### You'],
    ['```\n## You\n```', '   ```\n   ## You\n   ```'],
    ['[https://bank.example](https://evil.example/)', '[https://bank.example](<https://evil.example/>) (evil.example)'],
    [
      'A <https://ok.example/x> and [m](mailto:a@b.example)',
      'A [https://ok.example/x](<https://ok.example/x>) and [m](<mailto:a@b.example>)',
    ],
    ['- [ ] a\n- [x] **b**\n\n| a | b |\n|:-|-:|\n| `c` | d\\|e |', '- ☐ a\n- ☑ **b**\n\n| a | b |\n| :-- | --: |\n| `c` | d\\|e |'],
  ])('%j is written as %j', (reply, body) => {
    expect(expectSafe(reply)).toBe(`# Tents\n\n## You\n\nq\n\n## Agent\n\n${body}\n`);
  });

  it('whatever a reply holds: the same guarantees (random replies from hostile pieces)', () => {
    const PIECES = [
      ...HOSTILE,
      ...['\n', '\n\n', '# ', '## ', '> ', '- ', '1. ', '    ', '```', '~~~', '|', '---', '===', '**', '*', '_', '`'],
      ...['[', ']', '(', ')', '<', '>', '!', '&#106;', '&colon;', 'javascript:', 'data:', 'https://x.example/', 'You · 12:00', 'a b'],
    ];
    const reply = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 24 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(reply, (text) => {
        expectSafe(text);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

/**
 * The text a reader sees of `markdown`: it must be paragraphs of text only (text, escapes,
 * hard breaks: not even a web address a Markdown reader would link by itself), returned as
 * that text.
 */
function readBack(markdown: string): string {
  return (lexMarkdown(markdown, true) as Tokens.Generic[])
    .filter((t) => t.type !== 'space')
    .map((paragraph) => {
      expect(paragraph.type, JSON.stringify(markdown)).toBe('paragraph');
      return (paragraph.tokens as Tokens.Generic[])
        .map((t) => {
          if (t.type === 'br') return '\n';
          if (t.type === 'escape') return t.text as string;
          expect(t.type, JSON.stringify(markdown)).toBe('text');
          // A line break in text is a soft one: a space to the reader.
          return decodeEntities(t.text as string).replace(/\n/g, ' ');
        })
        .join('')
        .replace(/\s+$/, '');
    })
    .filter(Boolean)
    .join('\n\n');
}

/** What Markdown keeps of line breaks: paragraphs between blank lines, hard breaks in them; not white space at a paragraph's end. */
const asParagraphs = (text: string) =>
  text
    .split('\n')
    .map((line) => (/^[ \t]*$/.test(line) ? '' : line))
    .join('\n')
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/^\n+/, '').replace(/\s+$/, ''))
    .filter(Boolean)
    .join('\n\n');

/** The question as the saved file has it: between its speaker's heading and the reply's. */
function asSaved(question: string): string {
  const { markdown } = exported('ok', question);
  return markdown.slice(markdown.indexOf('## You\n\n') + '## You\n\n'.length, markdown.indexOf('\n\n## Agent'));
}

describe("the reader's own text", () => {
  it.each([
    'Title\n===',
    'Title\n---',
    '# not a heading',
    '> not a quote',
    '- not\n+ a\n* list\n1. nor\n2) this',
    '```\nnot code\n```',
    '    not code either',
    '| a | b |\n|---|---|\n| 1 | 2 |',
    '[a link](https://x.example) ![an image](https://x.example/i.png) [ref]\n\n[ref]: https://x.example',
    '<b>not HTML</b> <https://x.example> &amp; &#106;',
    'https://x.example\\> www.x.example a@b.example ftp://x.example',
    '---',
    '***\n___',
    '**You** · 12:00',
    '## You · 12:00',
    'a\\\nb  \nc\\',
    'tabs\tand\ttabs\n\tindented',
  ])('%j reads back exactly as typed', (question) => {
    expect(readBack(asSaved(question))).toBe(asParagraphs(question));
    expect(readBack(literalMarkdown(question))).toBe(asParagraphs(question));
    const { markdown: file } = exported('ok', question);
    expect(file.split('\n').filter((line) => /^#{1,2}(?!#)/.test(line))).toEqual(SPEAKERS);
  });

  it('whatever it holds (random text from characters Markdown reads as syntax)', () => {
    const SYNTAX = [
      ...'#=-+*_`~[]()<>!&|\\:.;"\'/1 \t\n',
      '\n\n',
      '    ',
      '```',
      '---',
      '===',
      '1.',
      '2)',
      '&amp;',
      '&#32;',
      'www.',
      'https://',
      'a@b.co',
      '\u00a0',
      'é',
    ];
    const text = fc.array(fc.constantFrom(...SYNTAX), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (question) => {
        expect(readBack(asSaved(question))).toBe(asParagraphs(question));
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
