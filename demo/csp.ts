/**
 * Script of `demo/csp.html` (served under a strict CSP by `/__demo/csp/<page-id>`). It
 * records every `securitypolicyviolation` in `window.cspViolations` before the widget
 * loads, so a test (or a person with devtools) can see whether the widget needed anything
 * the policy refuses.
 */
export interface RecordedViolation {
  directive: string;
  blockedURI: string;
  sample: string;
  sourceFile: string;
  disposition: string;
}

declare global {
  interface Window {
    cspViolations: RecordedViolation[];
    /** Set once `<agent-chat>` is defined on this page. */
    cspReady?: boolean;
  }
}

window.cspViolations = [];
// Capture on window: violations in the widget's shadow root are composed and bubble here.
window.addEventListener(
  'securitypolicyviolation',
  (e) => {
    window.cspViolations.push({
      directive: e.effectiveDirective || e.violatedDirective,
      blockedURI: e.blockedURI,
      sample: e.sample,
      sourceFile: e.sourceFile,
      disposition: e.disposition,
    });
  },
  true,
);

const params = new URLSearchParams(location.search);
const chat = document.querySelector('agent-chat')!;
chat.setAttribute('base-url', location.origin);
chat.setAttribute('publishable-key', params.get('key') ?? 'pk_demo_shop');
if (params.has('allow-html')) chat.setAttribute('allow-html', '');
if (params.has('channels')) chat.setAttribute('channels', params.get('channels')!);
if (params.has('transport')) chat.setAttribute('transport', params.get('transport')!);
if (params.has('mode')) chat.setAttribute('mode', params.get('mode')!);
if (params.has('feedback')) chat.setAttribute('feedback', '');
if (params.has('preview')) chat.setAttribute('preview', '');
if (params.has('thread-id')) chat.setAttribute('thread-id', params.get('thread-id')!);

if (params.has('probe')) {
  // Deliberate violations: an inline style attribute, and (where Trusted Types exist) a
  // string assigned to an HTML sink. A test expects to see both reported.
  document.body.setAttribute('style', 'outline: 1px solid red');
  try {
    document.createElement('div').innerHTML = '<b>probe</b>';
  } catch {
    // Refused under Trusted Types: that is the point.
  }
}

// `&bundle`: the production build (dist/agent-chat.js and its lazy chunks, after
// `npm run build`) instead of the source, so the policy is checked against what ships.
// `&bundle=<dir>` loads it from another directory (the tests' fault injection).
if (params.has('bundle')) await import(/* @vite-ignore */ `${location.origin}/${params.get('bundle') || 'dist'}/agent-chat.js`);
else await import('../src/agent-chat.js');
await customElements.whenDefined('agent-chat');
window.cspReady = true;
