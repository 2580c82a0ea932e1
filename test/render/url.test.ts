import { expect } from '@open-wc/testing';
import { safeUrl } from '../../src/security/url.js';

const BASE = 'https://shop.example/catalog/';

describe('safeUrl', () => {
  const allowed: Array<[string, string]> = [
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://EXAMPLE.com/x', 'https://example.com/x'],
    ['mailto:someone@example.com', 'mailto:someone@example.com'],
    ['tel:+4915112345678', 'tel:+4915112345678'],
    ['/pricing', 'https://shop.example/pricing'],
    ['item/42', 'https://shop.example/catalog/item/42'],
    ['?q=shoes', 'https://shop.example/catalog/?q=shoes'],
    ['#top', 'https://shop.example/catalog/#top'],
    ['//cdn.example/img.png', 'https://cdn.example/img.png'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
    ['https://example.com/a&b;c', 'https://example.com/a&b;c'],
  ];
  for (const [input, expected] of allowed) {
    it(`allows ${JSON.stringify(input)}`, () => {
      expect(safeUrl(input, BASE)).to.equal(expected);
    });
  }

  const rejected = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\rscript:alert(1)',
    '\u0001javascript:alert(1)',
    'javascript\u0000:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'file:///etc/passwd',
    'blob:https://example.com/0b1c',
    'ftp://example.com/file',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&colon;alert(1)',
    '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
    'jav&#x09;ascript:alert(1)',
    'java%73cript:alert(1)',
    'intent://x#Intent;end',
    'about:blank',
    'chrome://settings',
    '',
    '   ',
  ];
  for (const input of rejected) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      expect(safeUrl(input, BASE)).to.equal(null);
    });
  }

  it('resolves relative URLs against the document when no base is given', () => {
    expect(safeUrl('/x')).to.equal(new URL('/x', document.baseURI).href);
  });

  it('rejects non-strings without throwing', () => {
    expect(safeUrl(undefined as unknown as string)).to.equal(null);
    expect(safeUrl(42 as unknown as string)).to.equal(null);
  });
});
