// The booking loads' lighter engine: wrk (Debian's `wrk` package, written in C) drives the clients
// when it is installed. On this 2-core machine the load generator shares the CPU with the server
// and the database it measures: autocannon spent 0.19–0.28 ms of CPU per request, a third of what
// the server spends on a booking, and none of it is the server's work (real clients are elsewhere).
// Same clients (keep-alive connections, one request at a time each), same bodies (requestBody),
// the statuses and error codes counted the same way. One wrk thread holds all the connections
// (BENCH_WRK_THREADS, default 1): it is woken once for many answers, where two threads each woke
// for fewer and preempted the server more often (measured in decision 051). A fixed number of
// requests (the slot storm): each thread stops once it has its share of the answers; the requests
// its other connections had in flight then go unanswered and uncounted (at most one per
// connection; the report says how many).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadPlan, LoadReport } from './booking-load';
import { requestBody } from './booking-load';
import { envInt } from './stats';

/** wrk's path, or null when it is not installed (`apt-get install -y wrk`) or BENCH_LOAD_GENERATOR=autocannon. */
export function wrkPath(): string | null {
  if (process.env.BENCH_LOAD_GENERATOR === 'autocannon') return null;
  try {
    return execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const WRK_THREADS = envInt('BENCH_WRK_THREADS', 1);

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * Request n's body as a Lua template: the 50 tenants' JSON (n % 50), with @N for n, @D and @S for
 * the date and slot. A check below makes sure it renders to exactly what requestBody sends.
 */
function templates(plan: LoadPlan): string[] {
  return Array.from({ length: 50 }, (_, k) => {
    const json = JSON.stringify(requestBody(plan.orgId, plan.tag, 50_000_000 + k, '@D', '@S'));
    return json.replaceAll(`${plan.tag}-${50_000_000 + k}"`, `${plan.tag}-@N"`).replaceAll(`"${plan.tag}${50_000_000 + k}"`, `"${plan.tag}@N"`);
  });
}

function render(template: string, n: number, date: string, slot: string): string {
  return template.replace('@N', String(n)).replace('@N', String(n)).replace('@D', date).replace('@S', slot);
}

function script(plan: LoadPlan, bodies: string[]): string {
  const url = new URL(plan.url);
  return `
local templates = { ${bodies.map(luaString).join(', ')} }
local dates = { ${plan.dates.map(luaString).join(', ')} }
local slots = { ${plan.slots.map(luaString).join(', ')} }
local path = ${luaString(url.pathname)}
local headers = { ["Content-Type"] = "application/json" }
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end
local share = ${plan.requests !== undefined ? Math.ceil(plan.requests / WRK_THREADS) : 0}
function init(args)
  math.randomseed(${plan.seed} * 1000 + id)
  counter = 0
  answered = 0
  if share > 0 then io.write("\\nSTARTED\\n"); io.flush() end
  statuses = {}
  codes = {}
end
function request()
  counter = counter + 1
  -- 50,000,000 + a number of this thread's own: n % 50 picks the tenant, as requestBody does.
  local n = 50000000 + id * 1000000 + counter
  local body = templates[(n % 50) + 1]
  body = string.gsub(body, "@N", tostring(n))
  body = string.gsub(body, "@D", dates[math.random(#dates)], 1)
  body = string.gsub(body, "@S", slots[math.random(#slots)], 1)
  return wrk.format("POST", path, headers, body)
end
function response(status, hdrs, body)
  if share > 0 and answered >= share then return end
  answered = answered + 1
  if share > 0 and answered >= share then
    io.write("\\nSTOPPED\\n"); io.flush()
    wrk.thread:stop()
  end
  statuses[status] = (statuses[status] or 0) + 1
  if status ~= 201 then
    local code = string.match(body, '"code"%s*:%s*"([^"]+)"') or "no code"
    codes[code] = (codes[code] or 0) + 1
  end
end
local function json(t)
  local parts = {}
  for k, v in pairs(t) do table.insert(parts, string.format("%q:%d", tostring(k), v)) end
  return "{" .. table.concat(parts, ",") .. "}"
end
function done(summary, latency, requests)
  local byStatus, byCode, issued = {}, {}, 0
  for _, thread in ipairs(threads) do
    issued = issued + thread:get("counter")
    for k, v in pairs(thread:get("statuses")) do byStatus[k] = (byStatus[k] or 0) + v end
    for k, v in pairs(thread:get("codes")) do byCode[k] = (byCode[k] or 0) + v end
  end
  local stat = io.open("/proc/self/stat"):read("*a")
  local fields = {}
  for field in string.gmatch(string.match(stat, "%) (.*)"), "%S+") do table.insert(fields, field) end
  local e = summary.errors
  io.write(string.format('\\nRESULT {"byStatus":%s,"byErrorCode":%s,"issued":%d,"durationUs":%d,"errors":%d,"latencyUs":{"median":%d,"p95":%d,"mean":%d,"min":%d,"max":%d},"cpuTicks":%d}\\n',
    json(byStatus), json(byCode), issued, summary.duration, e.connect + e.read + e.write + e.timeout,
    math.floor(latency:percentile(50)), math.floor(latency:percentile(95)), math.floor(latency.mean), math.floor(latency.min), math.floor(latency.max), tonumber(fields[12]) + tonumber(fields[13])))
end
`;
}

type WrkResult = {
  byStatus: Record<string, number>;
  issued: number;
  byErrorCode: Record<string, number>;
  durationUs: number;
  errors: number;
  latencyUs: { median: number; p95: number; mean: number; min: number; max: number };
  cpuTicks: number;
};

/** The plan's load through wrk: its threads (one by default), `clients` connections, for a duration or about `requests` answers. */
export async function runWrkLoad(wrk: string, plan: LoadPlan): Promise<LoadReport> {
  const bodies = templates(plan);
  const check = requestBody(plan.orgId, plan.tag, 50_000_123, plan.dates[0]!, plan.slots[0]!);
  if (render(bodies[123 % 50]!, 50_000_123, plan.dates[0]!, plan.slots[0]!) !== JSON.stringify(check)) {
    throw new Error('the wrk script would not send what requestBody sends');
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baywise-wrk-'));
  const file = path.join(dir, 'load.lua');
  fs.writeFileSync(file, script(plan, bodies));
  try {
    // A fixed count: wrk's main thread sleeps for -d whatever its threads do, so it is woken with
    // SIGINT once every thread has stopped; the load took from the first thread's start to the last stop.
    let countedMs: number | null = null;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(wrk, [`-t${WRK_THREADS}`, `-c${plan.clients}`, `-d${plan.durationS ?? 600}s`, '--timeout', '30s', '-s', file, plan.url], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      let startedAt: number | null = null;
      let stopped = 0;
      child.stdout.on('data', (chunk: Buffer) => {
        const now = performance.now();
        const piece = chunk.toString();
        text += piece;
        if (startedAt === null && piece.includes('STARTED')) startedAt = now;
        stopped += piece.split('\nSTOPPED\n').length - 1;
        if (plan.requests !== undefined && stopped === WRK_THREADS && countedMs === null) {
          countedMs = now - (startedAt ?? now);
          child.kill('SIGINT');
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text.slice(-500)}`))));
    });
    const line = out.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`wrk printed no result: ${out.slice(-500)}`);
    const result = JSON.parse(line.slice('RESULT '.length)) as WrkResult;
    const ms = (us: number) => us / 1000;
    const sent = Object.values(result.byStatus).reduce((a, b) => a + b, 0);
    if (plan.requests !== undefined && result.issued > sent) console.error(`wrk: ${result.issued - sent} requests were in flight as the clients stopped (unanswered, not counted)`);
    // wrk's latency covers every answer; in a spread load nearly all are 201s.
    const latency = { n: sent, median: ms(result.latencyUs.median), p95: ms(result.latencyUs.p95), mean: ms(result.latencyUs.mean), min: ms(result.latencyUs.min), max: ms(result.latencyUs.max) };
    const ticksPerS = 100; // USER_HZ on Linux
    return {
      sent,
      elapsedMs: countedMs ?? result.durationUs / 1000,
      byStatus: result.byStatus,
      byErrorCode: result.byErrorCode,
      latency201: latency,
      latencyAll: latency,
      transportErrors: result.errors,
      generatorCpuMs: (result.cpuTicks / ticksPerS) * 1000,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
