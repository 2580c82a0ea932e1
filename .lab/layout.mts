import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '/work/main/scripts/chromium.ts';
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
await page.setContent('<div id="box" style="width:700px;font:15px system-ui"></div>');
const r = await page.evaluate(() => {
  const box = document.getElementById('box')!;
  const out: string[] = [];
  for (const kb of [10, 20, 40, 80]) {
    const text = '**a '.repeat(kb * 256);
    for (const mode of ['one', 'chunks']) {
      const t0 = performance.now();
      box.replaceChildren();
      if (mode === 'one') { const p = document.createElement('p'); p.style.whiteSpace = 'pre-wrap'; p.style.overflowWrap = 'anywhere'; p.textContent = text; box.append(p); }
      else { for (let i = 0; i < text.length; i += 2048) { const p = document.createElement('p'); p.style.whiteSpace = 'pre-wrap'; p.style.margin='0'; p.textContent = text.slice(i, i + 2048); box.append(p); } }
      void box.offsetHeight;
      const t1 = performance.now();
      // append 64 chars to the last paragraph and relayout
      const last = box.lastElementChild!;
      last.textContent += 'x'.repeat(64);
      void box.offsetHeight;
      out.push(`${kb}KB ${mode}: first ${(t1 - t0).toFixed(1)} ms, append ${(performance.now() - t1).toFixed(1)} ms`);
    }
  }
  return out;
});
console.log(r.join('\n'));
await browser.close();
