/**
 * Produces the README's screenshots from the running demo: `npm run screenshots`.
 * Starts the demo (Vite + reference server) on a free port, drives system Chromium with
 * playwright-core, and writes PNGs to docs/screenshots/.
 */
import { mkdir } from 'node:fs/promises';
import { chromium, type Page } from 'playwright-core';
import { createServer } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

const OUT = 'docs/screenshots';

async function chat(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(`${selector} >> [part="input"]`).fill(text);
  await page.locator(`${selector} >> [part="send-button"]`).click();
  await page.waitForFunction((sel) => (document.querySelector(sel) as { status?: string } | null)?.status === 'idle', selector);
  await page.waitForTimeout(300);
}

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  const server = await createServer({ server: { port: 0 }, logLevel: 'error' });
  await server.listen();
  const base = server.resolvedUrls!.local[0]!;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const shoot = async (
      name: string,
      setup: (page: Page) => Promise<void>,
      viewport = { width: 1180, height: 860 },
      deviceScaleFactor = 1,
    ) => {
      const context = await browser.newContext({ viewport, deviceScaleFactor });
      const page = await context.newPage();
      await page.goto(`${base}demo/`);
      await page.waitForFunction(() => (document.querySelector('#inline') as { status?: string } | null)?.status === 'idle');
      await setup(page);
      await page.screenshot({ path: `${OUT}/${name}.png` });
      await context.close();
      console.log(`${OUT}/${name}.png`);
    };

    await shoot('inline', async (page) => {
      await chat(page, '#inline', 'Which running shoes do you recommend under 150?');
      // Show the reply from its first line, with its cards and suggestions below.
      await page.evaluate(() => {
        const root = document.querySelector('#inline')!.shadowRoot!;
        const replies = root.querySelectorAll<HTMLElement>('.message.agent:not(.welcome)');
        const reply = replies[replies.length - 1];
        const log = root.querySelector<HTMLElement>('[part="log"]');
        if (reply && log) log.scrollTop += reply.getBoundingClientRect().top - log.getBoundingClientRect().top - 12;
      });
      await page.waitForTimeout(200);
    });
    await shoot('dark', async (page) => {
      await page.selectOption('select[name="theme"]', 'dark');
      await page.click('#page-theme');
      await chat(page, '#inline', 'Compare your rain jackets');
    });
    await shoot('rtl', async (page) => {
      await page.selectOption('select[name="lang"]', 'ar');
      await chat(page, '#inline', 'مرحبا');
    });
    await shoot(
      'launcher',
      async (page) => {
        await page.evaluate(() => (document.querySelector('#launcher') as unknown as { open(): void }).open());
        await page.waitForFunction(() => (document.querySelector('#launcher') as { status?: string } | null)?.status === 'idle');
        await chat(page, '#launcher', 'Show me backpacks');
      },
      { width: 1180, height: 860 },
    );
    // Highlighted code, in the light and the dark theme.
    const askForCode = async (page: Page) => {
      await chat(page, '#inline', 'How do I use the API as a developer?');
      await page.waitForFunction(() => !!document.querySelector('#inline')!.shadowRoot!.querySelector('code.hljs'));
      await page.evaluate(() => {
        const root = document.querySelector('#inline')!.shadowRoot!;
        const block = root.querySelector<HTMLElement>('.message.agent:not(.welcome) [part="code-block"]');
        const log = root.querySelector<HTMLElement>('[part="log"]');
        if (block && log) log.scrollTop += block.getBoundingClientRect().top - log.getBoundingClientRect().top - 80;
      });
      await page.waitForTimeout(200);
    };
    await shoot('code', askForCode);
    await shoot('code-dark', async (page) => {
      await page.selectOption('select[name="theme"]', 'dark');
      await page.click('#page-theme');
      await askForCode(page);
    });
    const openLauncherAndChat = async (page: Page) => {
      await page.evaluate(() => (document.querySelector('#launcher') as unknown as { open(): void }).open());
      await page.waitForFunction(() => (document.querySelector('#launcher') as { status?: string } | null)?.status === 'idle');
      await chat(page, '#launcher', 'Show me backpacks');
    };
    // A phone: the launcher's panel is the whole screen, modal.
    await shoot('phone', openLauncherAndChat, { width: 375, height: 667 }, 2);
    // A 1280×800 window at 200% zoom: 640×400 CSS px, where the panel goes full screen too.
    await shoot('zoom', openLauncherAndChat, { width: 640, height: 400 }, 2);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();
