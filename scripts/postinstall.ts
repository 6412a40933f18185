// After `npm install`, build the web app once so the first `npm start` is quick.
// `npm start` rebuilds by itself whenever the sources change, so a failure here is not fatal.
import { ensureWebBuild } from '../server/web-build';

try {
  await ensureWebBuild((message) => console.log(`[baywise] ${message}`));
} catch (error) {
  console.warn('[baywise] web build skipped:', (error as Error).message);
}
