// npm start: make sure the server bundle is current, then run it in this process.
import { bundleEntry, ensureServerBundle } from './server-bundle.mjs';

await ensureServerBundle();
process.setSourceMapsEnabled(true);
await import(bundleEntry);
