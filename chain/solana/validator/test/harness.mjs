// Test harness for the validator's node tests: starts server.mjs on free ports, calls its HTTP
// JSON-RPC, speaks to its PubSub over a WebSocket client (the `ws` package), and builds and signs
// System transfers with the seeded test keypairs.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Keypair, b64, bs58, compileLegacy, parseTransaction, signTransaction, unbs58 } from '../lib/codec.mjs';
import { ixs } from '../lib/token.mjs';

const SERVER = fileURLToPath(new URL('../server.mjs', import.meta.url));

/** startValidator runs server.mjs with 100 ms blocks, finalized after 4, no activity; it resolves with the start line plus stop(). */
export async function startValidator() {
  const child = spawn(process.execPath, [SERVER, '--port', '0', '--slot-ms', '100', '--finalize-depth', '4', '--activity-ms', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const lines = createInterface({ input: child.stdout });
  const [first] = await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`validator exited ${code}: ${log}`);
    }),
  ]);
  const node = JSON.parse(first);
  node.log = () => log;
  node.stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  };
  return node;
}

let rpcId = 0;

/** rpc calls a method on the HTTP endpoint and returns the whole answer ({result} or {error}). */
export async function rpc(url, method, params = []) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }) });
  return res.json();
}

/** result calls a method and returns its result, throwing on an error answer. */
export async function result(url, method, params = []) {
  const a = await rpc(url, method, params);
  if (a.error) throw new Error(`${method}: ${JSON.stringify(a.error)}`);
  return a.result;
}

/** keypair is a seeded keypair by name (holder-0, trader-1, faucet ...). */
export function keypair(node, name) {
  const k = node.keypairs.find((x) => x.name === name);
  if (!k) throw new Error(`no keypair ${name}`);
  return new Keypair(unbs58(k.secretKey).subarray(0, 32));
}

/** fresh is a new keypair nobody else uses. */
export const fresh = (label) => Keypair.fromLabel(`pubsub test/${label}/${Math.random()}`);

/**
 * transfer builds and signs a System transfer of lamports from a keypair to an address on the
 * processed head's blockhash; it returns {signature, wire (base64)}.
 */
export async function transfer(node, from, to, lamports) {
  const { value } = await result(node.url, 'getLatestBlockhash', [{ commitment: 'processed' }]);
  const { message, signers } = compileLegacy(from.publicKey, [ixs.transferSol(from.publicKey, unbs58(to), BigInt(lamports))], unbs58(value.blockhash));
  const wire = signTransaction(message, signers, [from]);
  return { signature: bs58(parseTransaction(wire).signatures[0]), wire: b64(wire) };
}

/** send sends a signed base64 transaction and returns sendTransaction's result. */
export const send = (node, tx, options = {}) => result(node.url, 'sendTransaction', [tx.wire, { encoding: 'base64', ...options }]);

/**
 * Client is a PubSub WebSocket client: call sends a request and resolves with its answer,
 * next resolves with the next notification a predicate accepts (or rejects after a timeout),
 * quiet checks that none arrives for a while.
 */
export class Client {
  static async open(url) {
    const c = new Client(new WebSocket(url));
    await once(c.ws, 'open');
    return c;
  }

  constructor(ws) {
    this.ws = ws;
    this.id = 0;
    this.pending = new Map();
    this.notifications = [];
    this.waiters = [];
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (Array.isArray(m) || m.id !== undefined) {
        const id = Array.isArray(m) ? 'batch' : m.id;
        this.pending.get(id)?.(m);
        this.pending.delete(id);
        return;
      }
      this.notifications.push(m);
      this.wake();
    });
  }

  /** raw sends text and resolves with the answer to id (or 'batch'). */
  raw(text, id) {
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(text);
    });
  }

  /** call sends {method, params} and resolves with the whole answer. */
  call(method, params) {
    const id = ++this.id;
    return this.raw(JSON.stringify({ jsonrpc: '2.0', id, method, params }), id);
  }

  /** subscribe calls a subscribe method and returns the subscription id, throwing on an error. */
  async subscribe(method, params) {
    const a = await this.call(method, params);
    if (a.error) throw new Error(`${method}: ${JSON.stringify(a.error)}`);
    return a.result;
  }

  wake() {
    for (const w of [...this.waiters]) {
      const i = this.notifications.findIndex(w.pred);
      if (i >= 0) {
        const [m] = this.notifications.splice(i, 1);
        this.waiters.splice(this.waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.resolve(m);
      }
    }
  }

  /** next resolves with the next notification pred accepts; the bound (15 s) only stops a hang. */
  next(pred, what = 'a notification', ms = 15000) {
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      w.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        reject(new Error(`no ${what} within ${ms} ms`));
      }, ms);
      this.waiters.push(w);
      this.wake();
    });
  }

  /** of is a predicate for the notifications of one subscription id. */
  static of(id) {
    return (m) => m.params?.subscription === id;
  }

  /** quiet resolves with the notifications of a subscription that arrived within ms (there should be none). */
  async quiet(id, ms) {
    await new Promise((r) => setTimeout(r, ms));
    return this.notifications.filter(Client.of(id));
  }

  async close() {
    this.ws.close();
    await once(this.ws, 'close');
  }
}
