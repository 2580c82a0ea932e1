/**
 * Hostile content for the security tests: what a compromised or prompt-injected agent could
 * say, through every channel it controls. Every payload that could run calls `__xss()` (or
 * `parent.__xss()` from a nested document): `installTrap()` counts the calls.
 */
import type { Card } from '../../src/client/types.js';

/** One-line payloads, usable as text, suggestion, card value or key. */
export const PAYLOADS: readonly string[] = [
  // raw HTML and event handlers
  '<script>__xss()</script>',
  '<img src=x onerror=__xss()>',
  '<img src="x" onerror="__xss()"/>',
  '<img src=`x`onerror=__xss()>',
  '<svg onload=__xss()></svg>',
  '<body onload=__xss()>',
  '<details open ontoggle=__xss()>x</details>',
  '<input autofocus onfocus=__xss()>',
  '<marquee onstart=__xss()>m</marquee>',
  '<video><source onerror=__xss()></video>',
  '<div style="background:url(javascript:__xss())">styled</div>',
  '<a href="javascript:__xss()">raw js link</a>',
  '<a href="&#106;avascript:__xss()">entity link</a>',
  '<a href="java&#x09;script:__xss()">tab entity link</a>',
  '<a href="data:text/html,<script>__xss()</script>">data link</a>',
  '<a href="vbscript:msgbox(1)">vb link</a>',
  // embedding, forms
  '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>',
  '<iframe src="javascript:parent.__xss()"></iframe>',
  '<object data="javascript:__xss()"></object>',
  '<embed src="javascript:__xss()">',
  '<form action="javascript:__xss()"><input type=submit value=go><button formaction="javascript:__xss()">b</button></form>',
  '<base href="javascript:__xss()//">',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss()">',
  '<link rel=stylesheet href="data:text/css,*{display:none}">',
  '<style>*{display:none!important}</style>',
  '<template><img src=x onerror=__xss()></template>',
  // SVG / MathML namespace confusion (mutation XSS)
  '<svg><a xlink:href="javascript:__xss()"><text x=0 y=10>svg link</text></a></svg>',
  '<svg><animate attributeName=href values=javascript:__xss() /></svg>',
  '<svg><style><img src=x onerror=__xss()></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xss()></style></mglyph></table></mtext></math>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=__xss()>',
  '<math href="javascript:__xss()">math link</math>',
  '<noscript><p title="</noscript><img src=x onerror=__xss()>"></noscript>',
  '<svg></p><style><a id="</style><img src=1 onerror=__xss()>">',
  // markdown links and images with bad schemes, obfuscated
  '[md js](javascript:__xss())',
  '[md JS case](JaVaScRiPt:__xss())',
  '[md colon entity](javascript&#58;__xss())',
  '[md scheme entity](&#106;avascript:__xss())',
  '[md hex entities](&#x6a;avascript&colon;__xss())',
  '[md angle](<javascript:__xss()>)',
  '[md space]( javascript:__xss())',
  '[md vb](vbscript:msgbox(1))',
  '[md data](data:text/html;base64,PHNjcmlwdD5fX3hzcygpPC9zY3JpcHQ+)',
  '[md title](https://ok.example/ "t\\" onmouseover=__xss() x=\\"")',
  '[md quote](https://ok.example/"onmouseover="__xss())',
  '<javascript:__xss()>',
  '![md img js](javascript:__xss())',
  '![md img data](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9X194c3MoKT48L3N2Zz4=)',
  '![md img alt" onerror="__xss()](x)',
  '&lt;img src=x onerror=__xss()&gt;',
];

/** Payloads that need more than one line (reference definitions). */
const MULTILINE: readonly string[] = [
  '[md ref js][r1]\n\n[r1]: javascript:__xss()',
  '![md ref img][r2]\n\n[r2]: data:image/svg+xml,<svg/onload=__xss()>',
];

export const inlineMarker = (i: number) => `after${i}inline`;
export const blockMarker = (i: number) => `after${i}block`;

/**
 * The whole corpus as one markdown reply. Each payload is followed on its line by an inline
 * marker (raw HTML is text by default, so the marker must survive next to it) and by a
 * paragraph of its own (which must survive even with `allow-html`).
 */
export function corpusMarkdown(): { text: string; inline: string[]; block: string[] } {
  const parts: string[] = [];
  const inline: string[] = [];
  const block: string[] = [];
  PAYLOADS.forEach((p, i) => {
    parts.push(`${p} ${inlineMarker(i)}`, blockMarker(i));
    inline.push(inlineMarker(i));
    block.push(blockMarker(i));
  });
  MULTILINE.forEach((p, j) => {
    const i = PAYLOADS.length + j;
    parts.push(p, blockMarker(i));
    block.push(blockMarker(i));
  });
  return { text: `Hello, here is what you asked for.\n\n${parts.join('\n\n')}\n\nTHE-END`, inline, block };
}

/** Marker that must never appear anywhere: rendered_jsx is never used. */
export const JSX_MARKER = 'JSX-MUST-NEVER-RENDER';

/** A transcript's `image_url` is the service's word too: each of these must never become an image's `src`. */
export const HOSTILE_IMAGE_URLS: readonly string[] = [
  'javascript:__xss()',
  ' java\tscript:__xss()',
  '&#106;avascript:__xss()',
  'vbscript:msgbox(1)',
  'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="__xss()"/>',
  'file:///etc/passwd',
  'mailto:someone@example.com',
  'blob:https://evil.example/1',
];

export const HOSTILE_TITLE = '<img src=x onerror=__xss()>Hostile title';
export const HOSTILE_KEY = '<img src=x onerror=__xss()>key';
export const HOSTILE_VALUE = '<a href="javascript:__xss()">value</a>';
export const HOSTILE_GROUP = '<svg onload=__xss()>';
export const HOSTILE_ITEM = '<iframe srcdoc="<script>parent.__xss()</script>"></iframe>';

/** Cards whose values AND keys are hostile; `rendered_jsx` carries a marker that must not show. */
export function hostileCards(): Card[] {
  const entity: Record<string, string | number | boolean> = {
    title: HOSTILE_TITLE,
    image: 'javascript:__xss()',
    price: '<svg onload=__xss()>9',
    url: 'javascript:__xss()',
    description: '<script>__xss()</script>description',
    badge: '<style>*{display:none}</style>',
    [HOSTILE_KEY]: HOSTILE_VALUE,
    onclick: '__xss()',
    onmouseover: '__xss()',
    constructor: 'ctor',
    style: 'display:none',
  };
  // A real own `__proto__` key, as JSON.parse makes it (an object literal would set the prototype).
  Object.defineProperty(entity, '__proto__', { value: 'proto', enumerable: true, configurable: true, writable: true });
  return [
    {
      index: 0,
      is_recommended: true,
      rendered_jsx: `<img src=x onerror=__xss()><script>__xss()</script>${JSX_MARKER}`,
      json_data: {
        entity,
        sub_entities: [
          { name: HOSTILE_GROUP, items: [{ size: HOSTILE_ITEM, [HOSTILE_KEY]: 'javascript:__xss()' }] },
          { name: 'constructor', items: [{ onload: '<img src=x onerror=__xss()>' }] },
        ],
      },
    } as Card,
    {
      index: 1,
      rendered_jsx: `<ProductCard onClick={() => __xss()} />${JSX_MARKER}`,
      json_data: {
        entity: {
          name: 'Second card',
          image: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="__xss()"/>',
          link: 'vbscript:msgbox(1)',
        },
      },
    },
    {
      index: 2,
      json_data: {
        entity: { title: 'Third card', image_url: ' java\tscript:__xss()', product_url: '&#106;avascript:__xss()' },
      },
    },
  ];
}
