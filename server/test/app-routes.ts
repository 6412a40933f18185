import type { App } from '../app';

export type AppRoute = { method: string; url: string };

/**
 * Every route the app serves (method and URL pattern, HEAD included), read from Fastify's own
 * route tree (`printRoutes`), so a route no OpenAPI document shows (hidden) is listed too.
 */
export function appRoutes(app: App): AppRoute[] {
  const routes: AppRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (!match) continue;
    const depth = [...match[1]!].length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const url = stack.join('');
    for (const method of match[3]?.split(',').map((m) => m.trim()) ?? []) routes.push({ method, url });
  }
  return routes;
}
