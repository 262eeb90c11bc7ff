// The move-pipeline load client for Caravanserai's protocol, in Node: the same runtime and
// WebSocket/JSON stack as boardgame.io's anchor client, so a side-by-side run compares servers,
// not clients (issue 19).  Load shape: LOAD_SHAPE.md (summarised in bench/README.md).
//
//   node bench/node/client.js --url http://127.0.0.1:8000 --games 100 --moves 200
//        [--timeout 300] [--conc 32] [--seed 1] [--compression none|deflate] [--legal-form grouped|moves]
//
// Prints one JSON line on stdout.  On stderr it prints "play-start" when every player holds its
// initial state (t0) and "play-end" when play stops, so that a wrapper (bench/node_load.py)
// measures the server's and Postgres's CPU over exactly the play phase.
//
// The hello asks for `legal` in --legal-form (docs/api.md; default grouped) and each move is picked
// from the mover's last `legal` without expanding the grouped form (pickMove).
//
// Latency of a move: performance.now() just before the mover's ws.send of the (already encoded)
// move frame, to just after the opponent's JSON.parse of the resulting `state`.
'use strict';
const crypto = require('crypto');
const WebSocket = require('ws');

const RULESET = 'bench-board';
const SESSION_COOKIE = 'caravanserai_session';

const opt = {
  url: 'http://127.0.0.1:8000', games: 10, moves: 200, timeout: 300, conc: 32, seed: 1, compression: 'none', 'legal-form': 'grouped',
};
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in opt)) throw new Error(`unknown option ${process.argv[i]}`);
  opt[key] = typeof opt[key] === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
const BASE = opt.url.replace(/\/$/, '');
const WS_BASE = 'ws' + BASE.slice('http'.length);
if (!['grouped', 'moves'].includes(opt['legal-form'])) throw new Error(`--legal-form must be grouped or moves`);
setTimeout(() => { console.error('client: hard timeout'); process.exit(2); }, (opt.timeout + 300) * 1000).unref();

// A small seeded generator (mulberry32): each game picks its cells from its own sequence.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const errors = {};
const fail = (game, code) => {
  errors[code] = (errors[code] || 0) + 1;
  if (!game.done) { game.done = true; finished(); }
};

async function call(method, path, player, body) {
  const headers = { 'content-type': 'application/json' };
  if (player && player.cookie) headers.cookie = `${SESSION_COOKIE}=${player.cookie}`;
  const response = await fetch(BASE + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(120000),
  });
  if (response.status >= 400) throw new Error(`${method} ${path} -> ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response;
}

async function pool(items, n, fn) {
  let next = 0;
  const worker = async () => { while (next < items.length) await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

const games = Array.from({ length: opt.games }, (_, index) => ({
  index, tableId: 0, players: [], acked: 0, sentAt: 0, done: false, random: generator(opt.seed * 1000003 + index),
}));
for (const game of games) {
  game.players = [0, 1].map((seat) => ({ index: 2 * game.index + seat, seat, game, cookie: '', ws: null, version: 0, legal: [] }));
}
const players = games.flatMap((game) => game.players);
const latencies = new Float64Array(opt.games * opt.moves);
let latencyCount = 0;
let finishedGames = 0;
let lastAck = 0;
let stopping = false;
let allDone;
const done = new Promise((resolve) => { allDone = resolve; });
const frameBytes = { to_act: [0, 0], other: [0, 0] };
let unexpected = 0;

function finished() {
  finishedGames += 1;
  if (finishedGames === games.length) allDone();
}

// A random move of a state frame's `legal` in the form the hello asked for: one draw over all
// moves, so both forms pick the same move (for bench-board, cell floor(random * 1000), as before
// the grouped form).
function pickMove(legal, random) {
  if (opt['legal-form'] === 'moves') return legal[Math.floor(random() * legal.length)];
  let index = Math.floor(random() * legal.reduce((sum, group) => sum + group.count, 0));
  for (const group of legal) {
    if (index < group.count) {
      const move = { type: group.type, ...group.same };
      for (const key of Object.keys(group.columns)) move[key] = group.columns[key][index];
      return move;
    }
    index -= group.count;
  }
  throw new Error('unreachable: index below the total count');
}

function sendMove(player) {
  const game = player.game;
  const text = JSON.stringify({
    type: 'move', id: crypto.randomUUID(), version: player.version, move: pickMove(player.legal, game.random),
  });
  game.sentAt = performance.now();
  player.ws.send(text);
}

function onPlayFrame(player, data) {
  const frame = JSON.parse(data);
  const now = performance.now();
  const game = player.game;
  if (frame.type === 'state') {
    if (frame.version <= player.version) return;
    player.version = frame.version;
    const acting = frame.to_act.includes(player.seat);
    const bucket = frameBytes[acting ? 'to_act' : 'other'];
    bucket[0] += data.length;
    bucket[1] += 1;
    if (game.done || !acting) return; // the mover's own copy: received and ignored
    player.legal = frame.legal;
    if (frame.version !== game.acked + 1) unexpected += 1;
    latencies[latencyCount++] = now - game.sentAt;
    lastAck = now;
    game.acked += 1;
    if (game.acked >= opt.moves) { game.done = true; finished(); } else sendMove(player);
  } else if (frame.type === 'error') {
    fail(game, frame.code || 'error');
  } // "ack" and anything else: ignored, the opponent's state is the acknowledgement
}

function openSocket(player) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${WS_BASE}/ws/games/${player.game.tableId}`, {
      headers: { cookie: `${SESSION_COOKIE}=${player.cookie}` }, perMessageDeflate: opt.compression === 'deflate',
      maxPayload: 1 << 22, handshakeTimeout: 120000,
    });
    player.ws = ws;
    let ready = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', since: 0, legal_form: opt['legal-form'] })));
    ws.on('message', (data) => {
      if (ready) { onPlayFrame(player, data.toString()); return; }
      const frame = JSON.parse(data.toString());
      if (frame.type === 'error') reject(new Error(`hello answered by error ${JSON.stringify(frame)}`));
      if (frame.type !== 'state') return;
      if (frame.seat !== player.seat || frame.version !== 0) reject(new Error(`unexpected initial state: seat ${frame.seat} version ${frame.version}`));
      player.legal = frame.legal;
      ready = true;
      resolve();
    });
    ws.on('error', (error) => { if (!ready) reject(error); else fail(player.game, 'socket_error'); });
    ws.on('close', () => { if (ready && !stopping && !player.game.done) fail(player.game, 'socket_closed'); });
  });
}

function cpuSeconds() {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

function nearestRank(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round = (value, digits) => (value === null || Number.isNaN(value) ? null : Number(value.toFixed(digits)));

async function main() {
  const setup = {};
  const setupStart = performance.now();
  const listed = (await (await call('GET', '/api/rulesets')).json()).map((ruleset) => ruleset.name);
  const phase = async (name, items, fn) => {
    const began = performance.now();
    await pool(items, opt.conc, fn);
    setup[name] = round((performance.now() - began) / 1000, 3);
  };
  await phase('guests', players, async (player) => {
    const response = await call('POST', '/api/auth/guest', null, { name: `bench${player.index}` });
    const cookie = (response.headers.getSetCookie() || []).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
    if (!cookie) throw new Error('guest login set no session cookie');
    player.cookie = cookie.slice(SESSION_COOKIE.length + 1).split(';')[0];
  });
  await phase('tables', games, async (game) => {
    const response = await call('POST', '/api/tables', game.players[0], { ruleset: RULESET, seats: 2, options: {}, private: false });
    game.tableId = (await response.json()).id;
  });
  await phase('join', games, (game) => call('POST', `/api/tables/${game.tableId}/join`, game.players[1], { seat: 1 }));
  await phase('start', games, (game) => call('POST', `/api/tables/${game.tableId}/start`, game.players[0]));
  await phase('sockets', players, openSocket);
  const setupSeconds = (performance.now() - setupStart) / 1000;

  console.error('play-start');
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  for (const game of games) sendMove(game.players[0]);
  let timedOut = false;
  await Promise.race([done, new Promise((resolve) => setTimeout(() => { timedOut = true; resolve(); }, opt.timeout * 1000))]);
  const clientCpu = cpuSeconds() - cpu0;
  console.error('play-end');
  stopping = true;
  for (const player of players) player.ws.close();

  const sorted = Array.from(latencies.subarray(0, latencyCount)).sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : null;
  const elapsed = (lastAck - t0) / 1000;
  const errorCount = Object.values(errors).reduce((sum, count) => sum + count, 0);
  const result = {
    bench: 'move-pipeline', client: 'node', games: opt.games, moves_per_game: opt.moves, compression: opt.compression,
    legal_form: opt['legal-form'],
    expected: opt.games * opt.moves, acked: latencyCount, timed_out: timedOut, play_s: round(elapsed, 3),
    throughput_mps: latencyCount && elapsed > 0 ? round(latencyCount / elapsed, 1) : 0,
    latency_ms: {
      p50: round(nearestRank(sorted, 50), 2), p95: round(nearestRank(sorted, 95), 2), p99: round(nearestRank(sorted, 99), 2),
      max: round(sorted.length ? sorted[sorted.length - 1] : null, 2), mean: round(mean, 2),
    },
    client_cpu_s: round(clientCpu, 2), setup_s: round(setupSeconds, 2), setup_phases_s: setup,
    ruleset_listed_in_lobby: listed.includes(RULESET), errors: errorCount, error_codes: errors,
    games_failed: games.filter((game) => game.done && game.acked < opt.moves).length, out_of_order_states: unexpected,
    state_frame_bytes: {
      to_act: frameBytes.to_act[1] ? Math.round(frameBytes.to_act[0] / frameBytes.to_act[1]) : null,
      other: frameBytes.other[1] ? Math.round(frameBytes.other[0] / frameBytes.other[1]) : null,
    },
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  setTimeout(() => process.exit(0), 200);
}

main().catch((error) => { console.error(`client: ${error.stack || error}`); process.exit(1); });
