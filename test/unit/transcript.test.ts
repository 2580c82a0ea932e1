import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileName, transcriptJson, transcriptMarkdown } from '../../src/export/transcript.js';
import type { ChatMessage } from '../../src/state/messages.js';

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
    const [title, question, reply] = markdown.split(/\n\n(?:---\n\n)?(?=#|\*\*)/);
    expect(title).toBe('# Tents');
    expect(question).toMatch(/^\*\*You\*\* · .*2025.*\n\n\\\*not\\\* \\<b\\>bold\\<\/b\\> \\# \\\[x\\\]$/);
    expect(reply).toBe(
      '**Agent**\n\nTake **this**:\n\n- [Dome \\[2p\\]](<https://shop.example/a%20b>)\n- No link\n\n_Too long to show in full_\n',
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
    expect(markdown).toContain('- [Mail](<mailto:a@b.c%3E)[x](javascript:alert(1)>)');
  });

  it('a file name from the title, safe anywhere; the date when there is none to use', () => {
    const day = new Date(2025, 0, 2);
    expect(fileName('Which tent: "dome"/tunnel?', day)).toBe('Which tent dome tunnel.md');
    expect(fileName('  ...hidden. ', day)).toBe('hidden.md');
    expect(fileName('evil\u202Edm.exe', day)).toBe('evil dm.exe.md');
    expect(fileName('', day)).toBe('chat-2025-01-02.md');
    expect(fileName('???', day)).toBe('chat-2025-01-02.md');
    expect(fileName('con', day)).toBe('chat-2025-01-02.md');
    expect(fileName('😀'.repeat(100), day)).toBe(`${'😀'.repeat(80)}.md`);
  });

  it('whatever the title: one name, with nothing a file system refuses or a reader could be fooled by', () => {
    // Text with the characters that matter among any others (fast-check's full-Unicode strings are slow to make).
    const titles = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.constantFrom('.', ' ', '/', '\\', ':', '\u202e', '\u0000', '\n', '\u2028', '😀', 'con', 'é'),
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
        expect(base).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"/\\|?*]/u);
        expect(base).not.toMatch(/^[\s.]|[\s.]$/);
        expect(Array.from(base).length).toBeLessThanOrEqual(80);
        expect(base.length).toBeGreaterThan(0);
        expect(base).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
      }),
    );
  });
});
