#!/usr/bin/env node
// partnerd's local Solana validator: standard Solana JSON-RPC 2.0 over HTTP, served over one
// LiteSVM instance (a real SVM: System, SPL Token, Token-2022, Associated Token Account, Memo,
// Address Lookup Table and Compute Budget programs), seeded deterministically from --seed.
//
//   node server.mjs [--host 127.0.0.1] [--port 8899] [--seed partnerd-localnet] [--slot-ms 400]
//                   [--finalize-depth 32] [--activity-ms 3000]
//
// --port 0 binds a free port. Once listening it prints one JSON line on stdout: the URL, the
// genesis hash, the mints, the holdings and the funded keypairs (test keypairs: their secret keys
// are public, never use them on a real cluster). --activity-ms 0 turns the background transfers off.
// Logs go to stderr. See README.md beside this file for the model and the method list.

import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Chain } from './lib/chain.mjs';
import { Keypair, bs58, compileLegacy, parseTransaction, sha256, signTransaction, stringify, unbs58 } from './lib/codec.mjs';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError } from './lib/errors.mjs';
import { Rpc, SOLANA_CORE } from './lib/rpc.mjs';
import { seed, startActivity } from './lib/seed.mjs';
import { ixs } from './lib/token.mjs';

const MAX_BODY = 1 << 20;

const { values: args } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8899' },
    seed: { type: 'string', default: 'partnerd-localnet' },
    'slot-ms': { type: 'string', default: '400' },
    'finalize-depth': { type: 'string', default: '32' },
    'activity-ms': { type: 'string', default: '3000' },
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
const log = (msg) => process.stderr.write(`${new Date().toISOString()} ${msg}\n`);

const began = performance.now();
const genesisHash = bs58(sha256(Buffer.from(`partnerd-localnet genesis/${args.seed}`)));
const chain = new Chain({ slotMs, finalizeDepth, genesisHash });
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
    return chain.land(wire, tx, san) ? sig : null;
  },
});

function handle(req) {
  if (req === null || typeof req !== 'object' || Array.isArray(req) || req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return { jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: req && typeof req === 'object' && 'id' in req ? req.id : null };
  }
  const id = req.id === undefined ? null : req.id;
  try {
    const result = rpc.call(req.method, req.params);
    return { jsonrpc: '2.0', result, id };
  } catch (e) {
    if (e instanceof RpcError) return { jsonrpc: '2.0', error: e.toJSON(), id };
    log(`${req.method}: ${e.stack ?? e}`);
    return { jsonrpc: '2.0', error: { code: INTERNAL_ERROR, message: 'Internal error' }, id };
  }
}

function respond(res, status, body) {
  const text = typeof body === 'string' ? body : stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Content-Length': Buffer.byteLength(text) });
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
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      respond(res, 200, { jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'Parse error' }, id: null });
      return;
    }
    if (Array.isArray(body)) {
      if (body.length === 0) {
        respond(res, 200, { jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: null });
        return;
      }
      // A batch: one response per request that has an id (notifications get none), in order.
      const out = [];
      for (const r of body) {
        const answer = handle(r);
        if (!(r && typeof r === 'object' && !Array.isArray(r) && !('id' in r) && !answer.error)) out.push(answer);
      }
      if (out.length === 0) {
        res.writeHead(200);
        res.end();
        return;
      }
      respond(res, 200, out);
      return;
    }
    const answer = handle(body);
    if (body && typeof body === 'object' && !('id' in body) && !answer.error) {
      res.writeHead(200);
      res.end();
      return;
    }
    respond(res, 200, answer);
  });
});
server.keepAliveTimeout = 60_000;

server.listen(port, args.host, () => {
  const addr = server.address();
  const ticker = setInterval(() => chain.produceBlock(), slotMs);
  const stopActivity = activityMs > 0 ? startActivity(chain, seeded, args.seed, activityMs, log) : () => {};
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const line = {
    url: `http://${host}:${addr.port}`,
    genesisHash,
    solanaCore: SOLANA_CORE,
    seed: args.seed,
    slotMs,
    finalizeDepth,
    activityMs,
    identity,
    mints: seeded.mints,
    holdings: seeded.holdings,
    keypairs: seeded.wallets,
    note: 'test keypairs only: their secret keys are public; never use them on a real cluster',
    startupMs: Math.round(performance.now() - began),
  };
  process.stdout.write(stringify(line) + '\n');
  log(`listening on ${line.url} (slot ${chain.head.slot}, ${slotMs} ms blocks, finalized after ${finalizeDepth})`);
  const stop = () => {
    clearInterval(ticker);
    stopActivity();
    server.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
});
server.on('error', (e) => {
  log(`listen: ${e.message}`);
  process.exit(1);
});
