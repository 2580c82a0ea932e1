import { expect } from '@open-wc/testing';
import { isRtl, resolveStrings, SUPPORTED_LANGUAGES } from '../../src/i18n/index.js';
import { en as panelEnglish } from '../../src/i18n/strings.js';
import { english as en, features } from '../support/english.js';
import { ar } from '../../src/i18n/locales/ar.js';
import { de } from '../../src/i18n/locales/de.js';
import { es } from '../../src/i18n/locales/es.js';
import { fr } from '../../src/i18n/locales/fr.js';
import { ja } from '../../src/i18n/locales/ja.js';
import { loadStrings } from '../../src/i18n/index.js';

// The widget loads non-English tables on demand; these tests read them synchronously.
for (const lang of ['de', 'fr', 'es', 'ja', 'ar']) await loadStrings(lang);

describe('i18n', () => {
  it('splits English between the panel and the features that show it, each key once', () => {
    const parts = [panelEnglish, ...Object.values(features)].map((part) => Object.keys(part));
    expect(parts.flat().length).to.equal(new Set(parts.flat()).size);
    expect(parts.flat().sort()).to.deep.equal(Object.keys(en).sort());
  });

  it('ships complete tables for en, de, fr, es, ja, ar', () => {
    expect(SUPPORTED_LANGUAGES).to.have.members(['en', 'de', 'fr', 'es', 'ja', 'ar']);
    const keys = Object.keys(en).sort();
    for (const table of [de, fr, es, ja, ar]) {
      expect(Object.keys(table).sort()).to.deep.equal(keys);
      for (const key of keys) {
        const value = (table as unknown as Record<string, unknown>)[key];
        expect(typeof value, key).to.equal(typeof (en as unknown as Record<string, unknown>)[key]);
        if (typeof value === 'string') expect(value.trim(), key).not.to.equal('');
      }
    }
  });

  it('translates rather than copying English', () => {
    expect(resolveStrings('de').send).to.equal('Senden');
    expect(resolveStrings('ja').typing).not.to.equal(en.typing);
    expect(resolveStrings('ar').heading).to.equal('الدردشة');
  });

  it('matches a region tag to its language and falls back to English', () => {
    // A table over English: what it lacks (a lazy feature's text it does not have yet) is English.
    expect(resolveStrings('de-AT')).to.deep.include(de);
    expect(resolveStrings('FR_ca')).to.deep.include(fr);
    expect(resolveStrings('es-419')).to.deep.include(es);
    // English: the panel's and, once their chunks arrived (here: all), the features' texts.
    expect(resolveStrings('pt-BR')).to.deep.equal(en);
    expect(resolveStrings(undefined)).to.deep.equal(en);
    expect(resolveStrings('')).to.deep.equal(en);
  });

  it('applies overrides on top of the language table', () => {
    const s = resolveStrings('de', { send: 'Los', announce: (who, text) => `${who} sagt ${text}` });
    expect(s.send).to.equal('Los');
    expect(s.stop).to.equal('Stoppen');
    expect(s.announce('Bot', 'Hallo')).to.equal('Bot sagt Hallo');
    expect(de.send).to.equal('Senden');
  });

  it('ignores overrides of the wrong type', () => {
    const s = resolveStrings('en', { send: null as unknown as string, typing: 42 as unknown as string });
    expect(s.send).to.equal('Send');
    expect(s.typing).to.equal(en.typing);
  });

  it('formats parametrised strings', () => {
    expect(en.errorValidation('Text is too long.')).to.equal('The message could not be processed. Text is too long.');
    expect(en.errorValidation()).to.equal('The message could not be processed.');
    expect(en.errorRateLimited(30)).to.contain('30');
    expect(fr.announce('Assistant', 'Bonjour')).to.equal('Assistant : Bonjour');
    expect(de.versionPosition(2, 3)).to.equal('Version 2 von 3');
  });

  it('knows right-to-left languages', () => {
    for (const lang of ['ar', 'ar-EG', 'he', 'he-IL', 'fa', 'ur', 'yi']) expect(isRtl(lang), lang).to.equal(true);
    for (const lang of ['en', 'de-AT', 'ja', undefined, '']) expect(isRtl(lang), String(lang)).to.equal(false);
  });
});
