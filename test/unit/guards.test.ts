import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_SUGGESTIONS,
  readCard,
  readCards,
  readMessage,
  readMessages,
  readSendResponse,
  readSuggestions,
} from '../../src/client/guards.js';
import { readTabMessage } from '../../src/continuity/tabs.js';

/** What the service (or another tab) sends is checked where it enters: one odd field costs that field. */
describe('wire guards', () => {
  it('a message with every field missing or mistyped takes their empty values', () => {
    expect(readMessage({ id: 5, text: null, sender: 'agent', cards: 'x', followup_suggestions: {} })).toEqual({
      id: '',
      text: '',
      sender: { type: 'agent' },
      cards: [],
      followup_suggestions: [],
    });
  });

  it('keeps the optional fields only when they have their type', () => {
    const m = readMessage({
      id: 'x',
      text: 't',
      created_at: '2026-01-01T00:00:00Z',
      image_url: 7,
      input_tokens: Infinity,
      output_tokens: 12,
    });
    expect(m).toMatchObject({ created_at: '2026-01-01T00:00:00Z', output_tokens: 12 });
    expect(m).not.toHaveProperty('image_url');
    expect(m).not.toHaveProperty('input_tokens');
  });

  it('keeps the sender id only when it is text', () => {
    expect(readMessage({ sender: { type: 'user', id: 3 } })!.sender).toEqual({ type: 'user' });
    expect(readMessage({ sender: { type: 'user', id: 'u1' } })!.sender).toEqual({ type: 'user', id: 'u1' });
  });

  it('is null for what is not an object at all', () => {
    for (const value of [null, 'text', 3, [], undefined]) expect(readMessage(value)).toBe(Array.isArray(value) ? readMessage(value) : null);
    expect(readMessage(null)).toBe(null);
  });

  it('a transcript leaves out entries that are not objects, and is null when not a list', () => {
    expect(readMessages([{ id: 'a', text: 'x' }, 3, null])!.map((m) => m.id)).toEqual(['a']);
    expect(readMessages({ messages: [] })).toBe(null);
  });

  it("suggestions are the texts with something to send, of a chip's length, the first few", () => {
    expect(readSuggestions(['a', '', '   ', 3, null, 'b'])).toEqual(['a', 'b']);
    expect(readSuggestions('a')).toEqual([]);
    expect(readSuggestions(['x'.repeat(501), 'short'])).toEqual(['short']);
    const many = Array.from({ length: 10_000 }, (_, i) => `option ${i}`);
    expect(readSuggestions(many)).toEqual(many.slice(0, MAX_SUGGESTIONS));
  });

  it('cards: card data is scalars only, sub-entities as groups of scalars; a card that is not an object is dropped', () => {
    const card = readCard({
      json_data: {
        entity: { title: 'Jacket', price: 49.5, nested: { no: 1 }, bad: Number.NaN, __proto__: { polluted: true } },
        sub_entities: [{ name: 'Size', items: [{ label: 'S' }, 'M'] }, 'x'],
      },
      rendered_jsx: '<Card/>',
      is_recommended: 'yes',
      index: 2,
    });
    expect(card).toEqual({
      json_data: { entity: { title: 'Jacket', price: 49.5 }, sub_entities: [{ name: 'Size', items: [{ label: 'S' }] }] },
      rendered_jsx: '<Card/>',
      index: 2,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(readCards([{}, 3, null])).toHaveLength(1);
    expect(readCards({ not: 'a list' })).toEqual([]);
  });

  it('send and rerun responses need a real thread id', () => {
    expect(readSendResponse({ thread_id: 'a'.repeat(24), message: { text: 'hi' } })).toMatchObject({ thread_id: 'a'.repeat(24) });
    expect(readSendResponse({ thread_id: 'nope', message: {} })).toBe(null);
    expect(readSendResponse({ thread_id: 'a'.repeat(24), message: 'hi' })).toBe(null);
  });

  it('never throws, whatever JSON arrives', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        readMessage(value);
        readMessages(value);
        readSendResponse(value);
        readCards(value);
      }),
      { numRuns: 500 },
    );
  });
});

describe("another tab's messages", () => {
  it('takes only the message types it knows, with their fields', () => {
    expect(readTabMessage({ type: 'sync' })).toEqual({ type: 'sync' });
    expect(readTabMessage({ type: 'stop', id: 't' })).toEqual({ type: 'stop', id: 't' });
    expect(readTabMessage({ type: 'token', id: 't', seq: 2, text: 'x' })).toEqual({ type: 'token', id: 't', seq: 2, text: 'x' });
    expect(readTabMessage({ type: 'token', id: 't', seq: 1.5, text: 'x' })).toBe(null);
    expect(readTabMessage({ type: 'end', id: 't', outcome: 'done', message: null })).toMatchObject({ outcome: 'done', message: null });
    expect(readTabMessage({ type: 'end', id: 't', outcome: 'exploded', message: null })).toBe(null);
    expect(readTabMessage({ type: 'end', id: 't', outcome: 'done', message: 'x' })).toBe(null);
    expect(readTabMessage({ type: 'turn', id: 't', turn: { nope: 1 } })).toBe(null);
    expect(readTabMessage({ type: 'beat', id: 'x'.repeat(65) })).toBe(null);
    expect(readTabMessage({ type: 'evil' })).toBe(null);
    expect(readTabMessage('sync')).toBe(null);
  });

  it('never throws, whatever another version of the code posts', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => void readTabMessage(value)),
      { numRuns: 300 },
    );
  });
});

describe("a message's image", () => {
  it('passes the URL policy where it enters: a transcript entry, a question from storage or another tab', async () => {
    const { fromWire, userMessage } = await import('../../src/state/messages.js');
    const { safeImageUrl } = await import('../../src/security/url.js');
    for (const bad of [
      'javascript:alert(1)',
      ' java\tscript:x',
      'data:image/png;base64,AAAA',
      'mailto:a@b.example',
      'blob:https://x/1',
      '',
    ]) {
      expect(safeImageUrl(bad), bad).toBe(null);
      expect(fromWire({ id: 'x', text: 't', sender: { type: 'user' }, image_url: bad }, 0).imageUrl, bad).toBeUndefined();
      expect(userMessage('t', bad).imageUrl, bad).toBeUndefined();
    }
    expect(fromWire({ id: 'x', text: 't', sender: { type: 'user' }, image_url: 'https://img.example/a.png' }, 0).imageUrl).toBe(
      'https://img.example/a.png',
    );
    expect(safeImageUrl(42)).toBe(null);
  });
});
