import { Hono } from 'hono';
import type { Catalog } from './demo-agent.js';

/** Per-category colours, so the cards of a reply look like a product range. */
const PALETTE: Record<string, [string, string]> = {
  'running-shoes': ['#4f46e5', '#06b6d4'],
  jackets: ['#b45309', '#ef4444'],
  backpacks: ['#15803d', '#84cc16'],
};

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * Product pictures for the demo catalog, drawn here so the demo looks finished on a machine
 * without internet access. Not part of the service: its cards carry whatever image URLs the
 * agent's templates produce.
 */
export function demoImageRoutes(catalog: Catalog): Hono {
  const app = new Hono();
  app.get('/__demo/images/:file', (c) => {
    const slug = c.req.param('file').replace(/\.svg$/, '');
    const product = catalog.products.find((p) => p.slug === slug);
    if (!product) return c.notFound();
    const [from, to] = PALETTE[product.category] ?? ['#475569', '#94a3b8'];
    const category = catalog.categories.find((k) => k.id === product.category)?.name ?? '';
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" role="img" aria-label="${escapeXml(product.title)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="400" height="300" fill="url(#g)"/>
<circle cx="330" cy="60" r="90" fill="#fff" opacity=".12"/><circle cx="60" cy="270" r="120" fill="#fff" opacity=".08"/>
<text x="200" y="158" fill="#fff" font-family="system-ui, sans-serif" font-size="30" font-weight="700" text-anchor="middle">${escapeXml(product.title)}</text>
<text x="200" y="192" fill="#fff" opacity=".85" font-family="system-ui, sans-serif" font-size="17" text-anchor="middle">${escapeXml(`${product.brand} · ${category}`)}</text>
</svg>`;
    return c.body(svg, 200, {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
      // Opened directly, an SVG is a document: it may not run or load anything.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });
  return app;
}
