#!/usr/bin/env node
// partnerd's local Solana validator: standard Solana JSON-RPC 2.0 over HTTP, and Solana's PubSub
// over WebSocket on the next port (the RPC port + 1, as solana-test-validator and Agave serve it,
// where clients such as @solana/web3.js look for it), served over one LiteSVM instance (a real
// SVM: System, SPL Token, Token-2022, Associated Token Account, Memo, Address Lookup Table and
// Compute Budget programs), seeded deterministically from --seed.
//
//   node server.mjs [--host 127.0.0.1] [--port 8899] [--seed partnerd-localnet] [--slot-ms 400]
//                   [--finalize-depth 32] [--activity-ms 3000] [--activity-count 0]
//
// --port 0 binds a free pair of ports (P for HTTP, P + 1 for PubSub). Once listening it prints one
// JSON line on stdout: the URL, the PubSub URL (wsUrl), the genesis hash, the mints, the holdings and the funded keypairs (test keypairs: their secret keys
// are public, never use them on a real cluster). --activity-ms 0 turns the background transfers off;
// --activity-count N stops them after N periods (0: never).
// Logs go to stderr. See README.md beside this file for the model and the method list.

import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Chain } from './lib/chain.mjs';
import { Keypair, bs58, compileLegacy, parseTransaction, sha256, signTransaction, stringify, unbs58 } from './lib/codec.mjs';
import { answerText } from './lib/jsonrpc.mjs';
import { PubSub } from './lib/pubsub.mjs';
import { deployPrograms } from './lib/programs.mjs';
import { Rpc, SOLANA_CORE } from './lib/rpc.mjs';
import { seed, startActivity } from './lib/seed.mjs';
import { ixs } from './lib/token.mjs';
import { pubSubServer } from './lib/ws.mjs';

const MAX_BODY = 1 << 20;

const { values: args } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8899' },
    seed: { type: 'string', default: 'partnerd-localnet' },
    'slot-ms': { type: 'string', default: '400' },
    'finalize-depth': { type: 'string', default: '32' },
    'activity-ms': { type: 'string', default: '3000' },
    'activity-count': { type: 'string', default: '0' },
  },
});
const intArg = (name, min) => {
  const v = Number(args[name]);
  if (!Number.isInteger(v) || v < min) {
    process.stderr.write(`--${name}: want an integer >= ${min}, got ${args[name]}\n`);
    process.exit(2);
  }
  return v;
};
const port = intArg('port', 0);
const slotMs = intArg('slot-ms', 1);
const finalizeDepth = intArg('finalize-depth', 1);
const activityMs = intArg('activity-ms', 0);
const activityCount = intArg('activity-count', 0);
const log = (msg) => process.stderr.write(`${new Date().toISOString()} ${msg}\n`);

const began = performance.now();
// The genesis hash is new at every start (the addresses still derive from the seed alone): an index
// kept from an earlier run sees another chain and starts over, as it would for a new cluster.
const genesisHash = bs58(sha256(Buffer.from(`partnerd-localnet genesis/${args.seed}/${Date.now()}/${process.pid}`)));
const chain = new Chain({ slotMs, finalizeDepth, genesisHash });
const programs = deployPrograms(chain);
const seeded = seed(chain, args.seed);
// Build blocks on top of the genesis block until the seeding is finalized, so that reads at every
// commitment see the seeded market from the first call.
for (let i = 0; i < finalizeDepth; i++) chain.produceBlock();

const faucet = seeded.keypairs.faucet;
const identity = Keypair.fromLabel(`${args.seed}/identity`).address;
const rpc = new Rpc(chain, {
  identity,
  // requestAirdrop: a System transfer from the faucet in the head block, as a faucet sends it. The
  // same request twice in one block is the same transaction: it lands once (as on a real cluster).
  faucet(to, lamports) {
    const { message, signers } = compileLegacy(faucet.publicKey, [ixs.transferSol(faucet.publicKey, to, lamports)], unbs58(chain.head.blockhash));
    const wire = signTransaction(message, signers, [faucet]);
    const tx = parseTransaction(wire);
    const sig = bs58(tx.signatures[0]);
    if (chain.history.has(sig)) return sig;
    const san = chain.sanitize(tx);
    chain.receive(sig);
    return chain.land(wire, tx, san) ? sig : null;
  },
});

const pubsub = new PubSub(chain, rpc);
const ws = pubSubServer(pubsub, log);

function respond(res, text) {
  if (text === null) {
    res.writeHead(200);
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'POST, GET, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type', 'Content-Length': 0 });
    res.end();
    return;
  }
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain' });
    res.end('Used HTTP Method is not allowed. POST or OPTIONS is required');
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size > MAX_BODY) {
      res.writeHead(413, { 'Content-Type': 'text/plain' });
      res.end('Payload Too Large');
      req.destroy();
      return;
    }
    chunks.push(c);
  });
  req.on('end', () => {
    if (size > MAX_BODY) return;
    respond(res, answerText(Buffer.concat(chunks).toString('utf8'), (method, params) => rpc.call(method, params), log));
  });
});
server.keepAliveTimeout = 60_000;

/** listen binds srv to port on the host and resolves with its address. */
function listen(srv, p) {
  return new Promise((resolve, reject) => {
    const failed = (e) => {
      srv.off('listening', listening);
      reject(e);
    };
    const listening = () => {
      srv.off('error', failed);
      resolve(srv.address());
    };
    srv.once('error', failed);
    srv.once('listening', listening);
    srv.listen(p, args.host);
  });
}

/**
 * listenPair binds the HTTP endpoint to --port and the PubSub endpoint to the port after it. With
 * --port 0 it first takes the port the kernel gives, then, while the port after it is taken, tries
 * random ones (the kernel tends to give ports of one parity, whose successors may all be busy).
 */
async function listenPair() {
  const ATTEMPTS = 100;
  for (let attempt = 1; ; attempt++) {
    const want = port !== 0 || attempt === 1 ? port : 10000 + Math.floor(Math.random() * 55000);
    let addr;
    try {
      addr = await listen(server, want);
    } catch (e) {
      if (port !== 0 || e.code !== 'EADDRINUSE' || attempt >= ATTEMPTS) throw e;
      continue;
    }
    try {
      if (addr.port === 65535) throw Object.assign(new Error('no port after 65535'), { code: 'EADDRINUSE' });
      return [addr, await listen(ws.server, addr.port + 1)];
    } catch (e) {
      if (port !== 0 || e.code !== 'EADDRINUSE' || attempt >= ATTEMPTS) throw new Error(`PubSub port ${addr.port + 1}: ${e.message}`);
    }
    await new Promise((resolve) => server.close(resolve));
  }
}

listenPair().then(
  ([addr, wsAddr]) => {
    const ticker = setInterval(() => chain.produceBlock(), slotMs);
    const stopActivity = activityMs > 0 ? startActivity(chain, seeded, args.seed, activityMs, activityCount, log) : () => {};
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const line = {
      url: `http://${host}:${addr.port}`,
      wsUrl: `ws://${host}:${wsAddr.port}`,
      genesisHash,
      solanaCore: SOLANA_CORE,
      seed: args.seed,
      slotMs,
      finalizeDepth,
      activityMs,
      activityCount,
      identity,
      mints: seeded.mints,
      holdings: seeded.holdings,
      keypairs: seeded.wallets,
      programs,
      ammConfigs: seeded.ammConfigs,
      pools: seeded.pools,
      createPoolFeeReceiver: seeded.createPoolFeeReceiver,
      note: 'test keypairs only: their secret keys are public; never use them on a real cluster',
      startupMs: Math.round(performance.now() - began),
    };
    process.stdout.write(stringify(line) + '\n');
    log(`listening on ${line.url}, PubSub on ${line.wsUrl} (slot ${chain.head.slot}, ${slotMs} ms blocks, finalized after ${finalizeDepth})`);
    const stop = () => {
      clearInterval(ticker);
      stopActivity();
      ws.close();
      server.close();
      process.exit(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  },
  (e) => {
    log(`listen: ${e.message}`);
    process.exit(1);
  },
);
