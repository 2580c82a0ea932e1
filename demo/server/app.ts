import { Hono } from 'hono';

export function createApp(): Hono {
  const app = new Hono();
  app.get('/messaging/v1/welcome-message', (c) => c.json({ welcome_message: 'Hi' }));
  return app;
}
