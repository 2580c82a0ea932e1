import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { validationError } from '../../server/src/http/errors.js';

/**
 * The policy a strict host page uses (SECURITY.md): no inline script or style, scripts and
 * styles from the page's own origin only, Trusted Types enforced with the widget's policy
 * (`agent-chat`) and Lit's (`lit-html`) as the only ones allowed. `connect-src` must name
 * the service; here it is the same origin.
 */
export function strictCsp(reportUri: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' https:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types agent-chat lit-html',
    `report-uri ${reportUri}`,
  ].join('; ');
}

const MAX_PAGES = 200;
const MAX_REPORTS_PER_PAGE = 100;
/** Characters of the reports kept, every page's together: the oldest pages go first. */
const MAX_REPORT_CHARS = 4 * 1024 * 1024;
const PAGE_ID = /^[\w-]{1,64}$/;

/**
 * `/__demo/csp/*` is NOT part of the agent service: a demo page (`demo/csp.html`) served
 * under `strictCsp`, and a `report-uri` sink that keeps the reports of each page id so a
 * test can read back what the browser reported. The page loads its scripts from this
 * origin (`/demo/csp.ts`), which the test runner and Vite compile on request.
 */
export function cspRoutes(): Hono {
  const app = new Hono();
  const reports = new Map<string, unknown[]>();
  const sizes = new Map<string, number>();
  let kept = 0;
  const page = readFileSync(new URL('../csp.html', import.meta.url), 'utf8');

  const pageId = (value: string): string => {
    if (!PAGE_ID.test(value)) throw validationError([{ message: 'Letters, digits, - and _ only (at most 64).', field: 'page' }]);
    return value;
  };

  app.get('/__demo/csp/:page', (c) => {
    const id = pageId(c.req.param('page'));
    c.header('content-security-policy', strictCsp(`/__demo/csp/${id}/reports`));
    c.header('cache-control', 'no-store');
    return c.html(page);
  });

  app.post('/__demo/csp/:page/reports', async (c) => {
    const id = pageId(c.req.param('page'));
    const raw = await c.req.text();
    let report: unknown;
    try {
      report = JSON.parse(raw) as unknown;
    } catch {
      report = raw;
    }
    const list = reports.get(id) ?? [];
    reports.delete(id);
    reports.set(id, list);
    if (list.length < MAX_REPORTS_PER_PAGE && raw.length <= MAX_REPORT_CHARS / MAX_PAGES) {
      list.push(report);
      sizes.set(id, (sizes.get(id) ?? 0) + raw.length);
      kept += raw.length;
    }
    for (const oldest of reports.keys()) {
      if (reports.size <= MAX_PAGES && kept <= MAX_REPORT_CHARS) break;
      if (oldest === id) continue;
      reports.delete(oldest);
      kept -= sizes.get(oldest) ?? 0;
      sizes.delete(oldest);
    }
    return c.body(null, 204);
  });

  app.get('/__demo/csp/:page/reports', (c) => c.json(reports.get(pageId(c.req.param('page'))) ?? []));

  return app;
}
