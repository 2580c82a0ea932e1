import { serve } from '@hono/node-server';
import { createApp, DEMO_PUBLISHABLE_KEY } from './app.js';

/** `npm run server`: the reference server alone, for a widget served from anywhere else. */
const port = Number(process.env.PORT ?? 8787);

serve({ fetch: createApp().fetch, port }, (info) => {
  console.log(`Reference server: http://localhost:${info.port}`);
  console.log(`Demo publishable key: ${DEMO_PUBLISHABLE_KEY}`);
  console.log('Fault knobs for tests live under /__demo (not part of the service).');
});
