import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveStrings } from '../../src/i18n/index.js';
import { addPack, hasStrings, isRtl, loadStrings } from '../../src/i18n/locales.js';
import { compilePack, fill, PACK_KEYS } from '../../src/i18n/pack.js';
import { en } from '../../src/i18n/strings.js';

/** The console lines of what runs in `body` (warnOnce says each message once per page: each test uses its own language). */
function warnings(body: () => void): string[] {
  const said: string[] = [];
  const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void said.push(args.join(' ')));
  try {
    body();
  } finally {
    spy.mockRestore();
  }
  return said;
}

describe('language packs (AgentChat.registerLocale)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('docs/languages.md lists every key of Strings with its parameters', () => {
    const doc = readFileSync(new URL('../../docs/languages.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\w+)` \| ((?:`\{\w+\}` ?)*) *\|/gm)].map(([, key, params]) => [key, params!.match(/\w+/g) ?? []]);
    expect(rows).toEqual(Object.entries(PACK_KEYS).map(([key, params]) => [key, params === 0 ? [] : params]));
  });

  it('keeps texts, and makes templates into text functions', () => {
    const t = compilePack('pt-x1', {
      send: 'Enviar',
      showEarlier: 'Mostrar {count} mensagens anteriores',
      versionPosition: 'Versão {current} de {total}',
      errorValidation: 'Não foi possível. {details}',
    });
    expect(t.send).toBe('Enviar');
    expect(t.showEarlier!(4)).toBe('Mostrar 4 mensagens anteriores');
    expect(t.versionPosition!(2, 5)).toBe('Versão 2 de 5');
    expect(t.errorValidation!('Texto vazio.')).toBe('Não foi possível. Texto vazio.');
    expect(t.errorValidation!(), 'a parameter not given is nothing').toBe('Não foi possível.');
  });

  it("chooses a template by the first parameter: none, the number's plural category, other", () => {
    const t = compilePack('pl', {
      suggestionsAvailable: { one: '1 sugestia', few: '{count} sugestie', many: '{count} sugestii', other: '{count} sugestii (other)' },
      errorRateLimited: { none: 'Za dużo wiadomości.', other: 'Za dużo wiadomości. Spróbuj za {seconds} s.' },
    });
    expect([1, 3, 5, 1.5].map((n) => t.suggestionsAvailable!(n))).toEqual([
      '1 sugestia',
      '3 sugestie',
      '5 sugestii',
      '1.5 sugestii (other)',
    ]);
    expect(t.errorRateLimited!()).toBe('Za dużo wiadomości.');
    expect(t.errorRateLimited!(30)).toBe('Za dużo wiadomości. Spróbuj za 30 s.');
  });

  it('leaves out, with one warning each, unknown keys, texts that are not strings and templates it cannot use', () => {
    let t: ReturnType<typeof compilePack> = {};
    const said = warnings(() => {
      t = compilePack('xx-bad', {
        send: 42,
        sendd: 'typo',
        toString: 'x',
        showEarlier: 'Zeige {cuont}',
        showMoreCards: { one: 'nur eins' },
        announce: () => 'a function',
        heading: 'Ok',
      });
    });
    expect(t).toEqual({ heading: 'Ok', showEarlier: expect.any(Function) });
    expect(t.showEarlier!(3), 'an unknown placeholder stays as written').toBe('Zeige {cuont}');
    expect(said).toHaveLength(5);
    expect(said.join('\n')).toMatch(/unknown keys left out: sendd, toString/);
    expect(said.join('\n')).toMatch(/send must be a string/);
    expect(said.join('\n')).toMatch(/showEarlier has no parameter \{cuont\}/);
    expect(said.join('\n')).toMatch(/showMoreCards needs a template/);
    expect(said.join('\n')).toMatch(/announce needs a template/);
    expect(
      warnings(() => compilePack('xx-bad', { sendd: 'typo', toString: 'y' })),
      'once',
    ).toEqual([]);
  });

  it('takes nothing from a pack that is not an object', () => {
    for (const pack of [null, 'de', ['a'], 3]) expect(compilePack('xx-none', pack)).toEqual({});
  });

  it('puts the parameters in as they are: a parameter that looks like a placeholder is not filled again', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (count, total) => {
        expect(fill('{count}', ['count', 'total'], [count, total])).toBe(count.trim());
        expect(fill('{count} / {total}', ['count', 'total'], ['{total}', total])).toBe(`{total} / ${total}`.trim());
      }),
    );
  });

  it('serves the tag, then its language; the rest of the texts are English', async () => {
    addPack('pt', { send: 'Enviar (pt)', heading: 'Conversa' }, undefined);
    addPack('pt-BR', { send: 'Enviar (BR)' }, undefined);
    expect(hasStrings('pt-br'), 'checked in its chunk first').toBe(false);
    await Promise.all([loadStrings('pt-BR'), loadStrings('pt-PT')]);
    expect(resolveStrings('pt-BR').send).toBe('Enviar (BR)');
    expect(resolveStrings('pt-BR').heading, 'not the pt pack: English').toBe(en.heading);
    expect(resolveStrings('pt-PT').send).toBe('Enviar (pt)');
    expect(resolveStrings('pt').heading).toBe('Conversa');
    expect(resolveStrings('pt').placeholder).toBe(en.placeholder);
    expect(resolveStrings('pt', { send: 'Host' }).send, "the host's strings win").toBe('Host');
  });

  it('gives a pack the direction it was registered with, else its language’s', () => {
    addPack('he', {}, 'rtl');
    addPack('x-klingon', {}, undefined);
    addPack('ar-x-latn', {}, 'ltr');
    expect([isRtl('he'), isRtl('he-IL'), isRtl('x-klingon'), isRtl('ar-x-latn'), isRtl('ar')]).toEqual([true, true, false, false, true]);
  });
});
