// The clients of bench/realtime-fanout.ts, in a process of their own so that 2,000 sockets do not
// share the server's event loop. Opens `count` sockets with one access token, subscribes each to the
// organization, prints `ready` once all are subscribed; then, for every line `expect <id>` read on
// stdin, waits until every socket has the event of that booking and prints a JSON line with the
// arrival times (ms since the epoch, performance.timeOrigin-based: comparable across processes).
// Usage: tsx bench/lib/socket-swarm.ts <ws-url> <token> <orgId> <count>
import readline from 'node:readline';
import { openTestSocket, type TestSocket } from '../../server/test/ws-client';

const [url, token, orgId, countText] = process.argv.slice(2);
const count = Number(countText);
const now = () => performance.timeOrigin + performance.now();
const sockets: TestSocket[] = [];
/** Arrival time of each booking's event, per socket index. */
const arrivals = new Map<string, number[]>();

async function open(index: number): Promise<void> {
  const socket = await openTestSocket(url!, [`bearer.${token}`]);
  sockets[index] = socket;
  socket.send({ type: 'subscribe', orgId: orgId! });
  await socket.next((m) => m.type === 'subscribed', 60_000);
}

// In batches: a burst of 2,000 handshakes at once is a connection storm, not what is measured.
for (let i = 0; i < count; i += 100) {
  await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
}
process.stdout.write('ready\n');

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const [command, id] = line.trim().split(' ');
  if (command === 'quit') break;
  if (command !== 'expect' || !id) continue;
  const times: number[] = [];
  arrivals.set(id, times);
  let missed = 0;
  await Promise.all(
    sockets.map(async (socket) => {
      try {
        await socket.next((m) => m.type === 'event' && m.event.id === id, 30_000);
        times.push(now());
      } catch {
        missed++;
      }
    }),
  );
  process.stdout.write(`${JSON.stringify({ id, times, missed })}\n`);
}
for (const socket of sockets) socket.close();
process.exit(0);
