// npm run dev: the API with reload on change (tsx watch) and the Vite dev server with hot module
// replacement on http://localhost:5173, proxying /api to the API on :3000.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, SKIP_WEB_BUILD: 'true', NODE_ENV: 'development' },
  }),
  spawn('npx', ['vite', '--port', '5173'], { stdio: 'inherit' }),
];
console.log('[baywise] dev: web with hot reload on http://localhost:5173, API on http://localhost:3000');
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
