// Solana's PubSub API (the WebSocket methods) over the Chain, as Agave's rpc_pubsub.rs and
// rpc_subscriptions.rs serve them: accountSubscribe, programSubscribe, logsSubscribe,
// signatureSubscribe, slotSubscribe and rootSubscribe with their unsubscribes, and getVersion.
// The transport (lib/ws.mjs) hands each connection's requests to call and writes what send gets.
//
// When notifications fire, in the chain's commitment model (lib/chain.mjs):
//   - processed: as each transaction executes in the head block (that is when it is processed);
//   - confirmed: when a block gets one block on top, for what that block holds;
//   - finalized: when a block gets --finalize-depth blocks on top, likewise.
// An account subscription is notified when a transaction stores the account (every writable
// account of a successful transaction, the fee payer of a failed one), with its state at the
// subscription's commitment; a program subscription likewise for each such account the program
// owns that passes the filters; a logs subscription for each transaction (mentioning the address);
// a signature subscription once, when the transaction reaches the commitment (then it is gone).
// Nothing is sent for what reached the commitment before the subscription, as on Agave (clients
// check getSignatureStatuses once subscribed). Identical subscriptions share one id, as on Agave.

import { Chain } from './chain.mjs';
import { stringify, unbs58 } from './codec.mjs';
import { RpcError, METHOD_NOT_FOUND, invalidParams } from './errors.mjs';
import { SOLANA_CORE, compileFilters, config, required, u64Param } from './rpc.mjs';
import { SYSTEM_PROGRAM } from './token.mjs';

const ENCODINGS = ['binary', 'base58', 'base64', 'jsonParsed', 'base64+zstd'];

// What a subscription to an account that does not exist (any more) is sent: Agave's default account.
const NO_ACCOUNT = { lamports: 0n, data: new Uint8Array(0), owner: SYSTEM_PROGRAM, executable: false, rentEpoch: 0n };

const badRequest = (what) => invalidParams(`Invalid Request: Invalid ${what} provided`);

/** pubkeyParam checks a base58 address parameter; what names it in Agave's error. */
function pubkeyParam(s, what) {
  if (typeof s !== 'string') throw invalidParams('Invalid params: invalid type: expected a string.');
  const b = unbs58(s);
  if (!b || b.length !== 32) throw badRequest(what);
  return s;
}

/** accountOptions reads an account-encoding config: encoding (default binary, as on Agave) and dataSlice. */
function accountOptions(cfg) {
  const encoding = cfg.encoding ?? 'binary';
  if (!ENCODINGS.includes(encoding)) {
    throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\`.`);
  }
  let slice = null;
  if (cfg.dataSlice) slice = { offset: u64Param(cfg.dataSlice.offset, 'dataSlice.offset'), length: u64Param(cfg.dataSlice.length, 'dataSlice.length') };
  return { encoding, slice };
}

/** A Connection is one client's session: the subscriptions it holds, and where its notifications go. */
class Connection {
  constructor(pubsub, send) {
    this.pubsub = pubsub;
    this.send = send;
    this.subs = new Map(); // id -> subscription
  }

  /** call runs one request of this connection; it throws RpcError. */
  call(method, params) {
    if (params === undefined || params === null) params = [];
    if (!Array.isArray(params)) throw invalidParams('Invalid params: invalid type: map, expected a sequence.');
    const f = METHODS[method];
    if (!f) throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
    return f.call(this.pubsub, this, params);
  }

  /** close drops every subscription of the connection. */
  close() {
    for (const id of [...this.subs.keys()]) this.pubsub.unsubscribe(this, id);
  }
}

/** PubSub serves Solana's PubSub methods over a Chain, encoding accounts with rpc (an Rpc). */
export class PubSub {
  constructor(chain, rpc) {
    this.chain = chain;
    this.rpc = rpc;
    this.nextId = 0;
    this.byKey = new Map(); // canonical parameters -> subscription
    this.byId = new Map(); // id -> subscription, in id order
    this.reached = { confirmed: chain.commitmentBlock('confirmed').height, finalized: chain.commitmentBlock('finalized').height };
    this.root = chain.commitmentBlock('finalized').slot;
    chain.watch(this);
  }

  /** connect opens a connection whose notifications go to send(text). */
  connect(send) {
    return new Connection(this, send);
  }

  /** subscribe adds a subscription (or joins the identical one) to a connection and returns its id. */
  subscribe(conn, sub) {
    const key = JSON.stringify([sub.kind, sub.commitment ?? null, sub.key]);
    let s = this.byKey.get(key);
    if (!s) {
      s = { ...sub, id: this.nextId++, mapKey: key, conns: new Set() };
      this.byKey.set(key, s);
      this.byId.set(s.id, s);
    }
    s.conns.add(conn);
    conn.subs.set(s.id, s);
    return s.id;
  }

  /** unsubscribe removes a connection's subscription; the subscription ends when no connection holds it. */
  unsubscribe(conn, id) {
    const s = conn.subs.get(id);
    if (!s) throw invalidParams('Invalid subscription id.');
    conn.subs.delete(id);
    s.conns.delete(conn);
    if (s.conns.size === 0) this.drop(s);
    return true;
  }

  drop(s) {
    this.byKey.delete(s.mapKey);
    this.byId.delete(s.id);
  }

  /** notify sends a notification of a subscription to every connection holding it; final ends it (signatures). */
  notify(s, result, final = false) {
    const text = stringify({ jsonrpc: '2.0', method: s.method, params: { result, subscription: s.id } });
    for (const conn of s.conns) conn.send(text);
    if (final) {
      for (const conn of s.conns) conn.subs.delete(s.id);
      s.conns.clear();
      this.drop(s);
    }
  }

  // ---- chain events ----

  /** received: a transaction was accepted; signature subscriptions that asked for it are told so. */
  received(signature, slot) {
    for (const s of [...this.byId.values()]) {
      if (s.kind === 'signature' && s.signature === signature && s.received) this.notify(s, { context: { slot }, value: 'receivedSignature' });
    }
  }

  /** landed: a transaction executed in the head block, so it is processed. */
  landed(rec) {
    this.deliver('processed', rec.slot, [rec]);
  }

  /** produced: a new block started; the blocks it moved up to confirmed and finalized are delivered. */
  produced(block) {
    const fin = this.chain.commitmentBlock('finalized');
    for (const s of [...this.byId.values()]) {
      if (s.kind === 'slot') this.notify(s, { parent: block.parentSlot, root: fin.slot, slot: block.slot });
    }
    for (const level of ['confirmed', 'finalized']) {
      const to = this.chain.commitmentBlock(level).height;
      for (let h = Math.max(this.reached[level] + 1, this.chain.blockBase); h <= to; h++) {
        const b = this.chain.block(h);
        this.deliver(level, b.slot, b.signatures.map((sig) => this.chain.history.get(sig)));
      }
      this.reached[level] = to;
    }
    if (fin.slot !== this.root) {
      this.root = fin.slot;
      for (const s of [...this.byId.values()]) if (s.kind === 'root') this.notify(s, fin.slot);
    }
  }

  /**
   * deliver notifies the subscriptions at a commitment level of transactions (records) that
   * reached it in the block at slot: their signatures, logs, and the accounts they stored.
   */
  deliver(level, slot, recs) {
    const stored = new Set(recs.flatMap((r) => r.modified));
    const context = { slot };
    for (const s of [...this.byId.values()]) {
      if (s.commitment !== level) continue;
      try {
        switch (s.kind) {
          case 'signature': {
            const r = recs.find((x) => x.signature === s.signature);
            if (r) this.notify(s, { context, value: { err: r.err } }, true);
            break;
          }
          case 'logs':
            for (const r of recs) {
              if (s.mentions === null || r.keysB58.includes(s.mentions)) this.notify(s, { context, value: { signature: r.signature, err: r.err, logs: r.logs } });
            }
            break;
          case 'account':
            if (stored.has(s.pubkey)) this.notify(s, { context, value: this.encode(s, this.chain.account(s.pubkey, null, level) ?? NO_ACCOUNT, level) });
            break;
          case 'program':
            for (const addr of stored) {
              const a = this.chain.account(addr, null, level);
              if (a && a.owner === s.program && s.filters.every((f) => f(a.data))) {
                this.notify(s, { context, value: { pubkey: addr, account: this.encode(s, a, level) } });
              }
            }
            break;
        }
      } catch (e) {
        process.stderr.write(`${new Date().toISOString()} pubsub ${s.method} ${s.id}: ${e.stack ?? e}\n`);
      }
    }
  }

  encode(s, account, level) {
    return this.rpc.encodeAccount(account, s.encoding, s.slice, level, { sizeChecked: false });
  }
}

// The methods, called with this = the PubSub and the connection first. Parameters and errors as
// Agave's rpc_pubsub.rs has them: commitment defaults to finalized, encodings to binary.
const METHODS = {
  accountSubscribe(conn, params) {
    const pubkey = pubkeyParam(required(params, 0, 'a pubkey'), 'pubkey');
    const cfg = config(params, 1);
    const commitment = Chain.commitment(cfg.commitment);
    const { encoding, slice } = accountOptions(cfg);
    return this.subscribe(conn, { kind: 'account', method: 'accountNotification', commitment, pubkey, encoding, slice, key: [pubkey, encoding, slice] });
  },
  programSubscribe(conn, params) {
    const program = pubkeyParam(required(params, 0, 'a program id'), 'pubkey');
    const cfg = config(params, 1);
    const filters = compileFilters(cfg.filters);
    const commitment = Chain.commitment(cfg.commitment);
    const { encoding, slice } = accountOptions(cfg);
    return this.subscribe(conn, {
      kind: 'program', method: 'programNotification', commitment, program, filters, encoding, slice, key: [program, encoding, slice, cfg.filters ?? []],
    });
  },
  logsSubscribe(conn, params) {
    const filter = required(params, 0, 'a filter');
    let mentions;
    if (filter === 'all' || filter === 'allWithVotes') mentions = null; // no vote transactions here: the two are the same
    else if (filter && typeof filter === 'object' && Array.isArray(filter.mentions)) {
      if (filter.mentions.length !== 1) throw invalidParams('Invalid Request: Only 1 address supported');
      mentions = pubkeyParam(filter.mentions[0], 'mentions');
    } else throw invalidParams('Invalid params: unknown variant, expected `all`, `allWithVotes` or `{"mentions": [address]}`.');
    const commitment = Chain.commitment(config(params, 1).commitment);
    return this.subscribe(conn, { kind: 'logs', method: 'logsNotification', commitment, mentions, key: [filter === 'allWithVotes' ? 'allWithVotes' : mentions ?? 'all'] });
  },
  signatureSubscribe(conn, params) {
    const signature = required(params, 0, 'a signature');
    const b = typeof signature === 'string' && signature.length <= 88 ? unbs58(signature) : null;
    if (!b || b.length !== 64) throw badRequest('signature');
    const cfg = config(params, 1);
    const commitment = Chain.commitment(cfg.commitment);
    const received = cfg.enableReceivedNotification === true;
    return this.subscribe(conn, { kind: 'signature', method: 'signatureNotification', commitment, signature, received, key: [signature, received] });
  },
  slotSubscribe(conn) {
    return this.subscribe(conn, { kind: 'slot', method: 'slotNotification', key: [] });
  },
  rootSubscribe(conn) {
    return this.subscribe(conn, { kind: 'root', method: 'rootNotification', key: [] });
  },
  getVersion() {
    return { 'solana-core': SOLANA_CORE, 'feature-set': this.rpc.featureSet };
  },
};

for (const kind of ['account', 'program', 'logs', 'signature', 'slot', 'root']) {
  METHODS[`${kind}Unsubscribe`] = function unsubscribe(conn, params) {
    return this.unsubscribe(conn, u64Param(required(params, 0, 'a subscription id'), 'subscription id'));
  };
}
