/**
 * The Content-Security-Policy of the Swagger UI pages (/api/docs, /api/ssc/docs): only our own files
 * (@fastify/swagger-ui serves them; nothing from a CDN), plus the inline styles Swagger UI applies
 * to its elements, which @fastify/swagger-ui's default static CSP blocks (a console error each).
 */
export const SWAGGER_UI_CSP: Record<string, string | string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'self'"],
};
