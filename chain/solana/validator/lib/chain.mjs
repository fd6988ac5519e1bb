// The chain: one LiteSVM instance plus what a validator adds around its bank: blocks that
// advance with time, a blockhash queue, commitment levels, a short account history for reads at
// confirmed/finalized, and the transaction history with Solana's status metadata.
//
// Model (documented in ../README.md):
//   - A block is produced every slotMs. Its slot is the previous slot + 1, except that every
//     SKIP_EVERY-th block skips one slot (as leaders do on mainnet), so block height < slot.
//   - A transaction executes at once in the head block: "processed". It is "confirmed" once one
//     block is built on top of it, "finalized" once finalizeDepth blocks are.
//   - Reads at a commitment see the state as of that commitment's block: processed = head,
//     confirmed = head - 1 block, finalized = head - finalizeDepth blocks (the journal keeps the
//     prior versions of accounts changed since the finalized block).
//   - Each block has a new blockhash; a transaction's blockhash is valid for 150 blocks
//     (lastValidBlockHeight = its block height + 150), as on mainnet. Durable nonces work.

import { createRequire } from 'node:module';
import { LiteSVM, FailedTransactionMetadata } from 'litesvm';
import { bs58, equalBytes, isStaticWritable, unbs58, verifySignature } from './codec.mjs';
import { RpcError, SEND_TRANSACTION_PREFLIGHT_FAILURE, TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, invalidParams, namedTxError, txError } from './errors.mjs';
import { ALT_PROGRAM, COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAM, MEMO_V1_PROGRAM, SYSTEM_PROGRAM, isTokenProgram, parseMint, parseTokenAccount, tokenAmount } from './token.mjs';

const require = createRequire(import.meta.url);
const { Account, Clock, EpochSchedule } = require('litesvm/dist/internal.js');

export const MAX_PROCESSING_AGE = 150; // blocks a blockhash stays valid
const MAX_RECENT_BLOCKHASHES = 300; // blockhash queue and status cache length, in blocks
const SKIP_EVERY = 25; // every 25th block skips a slot
const SLOT_HASHES = 150; // entries kept in the SlotHashes sysvar (Solana keeps 512; 150 covers every valid blockhash)
export const SLOTS_PER_EPOCH = 432000n;
export const LAMPORTS_PER_SIGNATURE = 5000n;
const GENESIS_LEAD = 1n; // seconds between genesis and the start
const U64_MAX = 18446744073709551615n;

// Programs whose instructions count as builtins (3,000 CUs) in the default compute unit limit;
// every other instruction counts 200,000 (Agave's reserve_minimal_cus_for_builtin_instructions).
const BUILTINS = new Set([
  SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM, 'Vote111111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111', 'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111', 'LoaderV411111111111111111111111111111111111',
]);
const PRECOMPILES = new Set(['Ed25519SigVerify111111111111111111111111111', 'KeccakSecp256k11111111111111111111111111111', 'Secp256r1SigVerify1111111111111111111111111']);

const snap = (a) =>
  a && a.lamports() > 0n
    ? { lamports: a.lamports(), data: a.data(), owner: bs58(a.owner()), executable: a.executable(), rentEpoch: a.rentEpoch() }
    : null;

const sameAccount = (a, b) =>
  a === b || (a && b && a.lamports === b.lamports && a.owner === b.owner && a.executable === b.executable && equalBytes(a.data, b.data));

/** feeOf reads the fee LiteSVM charged from its metadata's debug form ("..., fee: 5000 })"). */
function feeOf(result) {
  const s = result.toString();
  const m = /fee: (\d+) \}[ })]*$/.exec(s);
  return m ? BigInt(m[1]) : null;
}

export class Chain {
  /**
   * @param {object} o
   * @param {number} o.slotMs        milliseconds per block
   * @param {number} o.finalizeDepth blocks on top of a block before it is finalized (>= 1)
   * @param {string} o.genesisHash   base58 genesis hash
   */
  constructor({ slotMs, finalizeDepth, genesisHash }) {
    this.slotMs = slotMs;
    this.finalizeDepth = Math.max(1, finalizeDepth);
    this.genesisHash = genesisHash;
    this.svm = new LiteSVM();
    this.svm.withNativeMints();
    this.inner = this.svm.inner;
    this.inner.setBlockhashCheck(false); // the validator checks the blockhash queue itself (150 blocks)
    this.inner.setTransactionHistory(0n); // history is ours; duplicates are refused by signature below
    this.inner.setEpochSchedule(new EpochSchedule(SLOTS_PER_EPOCH, SLOTS_PER_EPOCH, false, 0n, 0n));
    // Genesis (the seeded block) is dated GENESIS_LEAD seconds before the start, so that what
    // the seed created at genesis and opens a second later (a CPMM pool) is open from block 1 on.
    this.genesisTime = BigInt(Math.floor(Date.now() / 1000)) - GENESIS_LEAD;
    this.blocks = []; // by height - this.blockBase
    this.blockBase = 0;
    this.blockhashes = new Map(); // base58 -> block height
    this.history = new Map(); // signature -> record
    this.byAddress = new Map(); // base58 address -> signatures, oldest first
    this.journal = new Map(); // base58 address -> [{slot, prev}], oldest first (changes after the finalized block)
    this.decimals = new Map(); // mint -> decimals
    this.transactionCount = 0;
    this.slotHashes = [];
    this.watchers = [];
    this.pushBlock(0, this.inner.latestBlockhash());
  }

  // ---- events ----

  /**
   * watch registers a watcher of the chain's events (the PubSub service): any of
   * received(signature, slot) when a transaction is accepted for processing, landed(record) when
   * one executes in the head block (it is then processed), produced(block) when a new block
   * starts (the blocks before it move up a commitment level).
   */
  watch(watcher) {
    this.watchers.push(watcher);
  }

  emit(event, ...args) {
    for (const w of this.watchers) {
      try {
        w[event]?.(...args);
      } catch (e) {
        process.stderr.write(`${new Date().toISOString()} watcher ${event}: ${e.stack ?? e}\n`);
      }
    }
  }

  /** receive says a transaction was accepted for processing (a leader received it), before it executes or is dropped. */
  receive(signature) {
    this.emit('received', signature, this.head.slot);
  }

  // ---- blocks and commitment ----

  get head() {
    return this.blocks[this.blocks.length - 1];
  }

  block(height) {
    return this.blocks[height - this.blockBase];
  }

  pushBlock(slot, blockhash) {
    const height = this.blocks.length ? this.head.height + 1 : 0;
    const time = this.blocks.length ? BigInt(Math.floor(Date.now() / 1000)) : this.genesisTime;
    const epoch = BigInt(slot) / SLOTS_PER_EPOCH;
    this.inner.setClock(new Clock(BigInt(slot), epoch === 0n ? this.genesisTime : time, epoch, epoch + 1n, time));
    if (this.blocks.length) {
      // SlotHashes holds the recent blocks before this one, newest first (the Address Lookup Table
      // program checks a table's recent slot against it).
      this.slotHashes.unshift({ slot: BigInt(this.head.slot), hash: this.head.blockhash });
      if (this.slotHashes.length > SLOT_HASHES) this.slotHashes.pop();
      this.inner.setSlotHashes(this.slotHashes);
    }
    const b = { slot, height, blockhash, parentSlot: this.blocks.length ? this.head.slot : 0, time, signatures: [] };
    this.blocks.push(b);
    this.blockhashes.set(blockhash, height);
    const old = height - MAX_RECENT_BLOCKHASHES - 1;
    if (old >= this.blockBase) this.blockhashes.delete(this.block(old).blockhash);
    // Keep enough blocks for the status cache and prioritization fees; the rest lives on in the records.
    if (this.blocks.length > 2 * MAX_RECENT_BLOCKHASHES) {
      const drop = this.blocks.length - MAX_RECENT_BLOCKHASHES - 1;
      this.blocks.splice(0, drop);
      this.blockBase += drop;
    }
    this.pruneJournal();
    return b;
  }

  /** produceBlock advances the chain by one block: new slot, new blockhash, commitment moves on. */
  produceBlock() {
    const h = this.head;
    const slot = h.slot + ((h.height + 1) % SKIP_EVERY === 0 ? 2 : 1);
    this.inner.expireBlockhash();
    const b = this.pushBlock(slot, this.inner.latestBlockhash());
    this.emit('produced', b);
    return b;
  }

  /** commitmentBlock is the block a commitment level reads at. */
  commitmentBlock(commitment) {
    const h = this.head.height;
    const depth = commitment === 'processed' ? 0 : commitment === 'confirmed' ? 1 : this.finalizeDepth;
    return this.block(Math.max(this.blockBase, h - depth));
  }

  /** parseCommitment validates a commitment option (default finalized); recent/single/max etc. map as Solana maps them. */
  static commitment(c) {
    if (c == null) return 'finalized';
    switch (c) {
      case 'processed':
      case 'recent':
        return 'processed';
      case 'confirmed':
      case 'single':
      case 'singleGossip':
        return 'confirmed';
      case 'finalized':
      case 'max':
      case 'root':
        return 'finalized';
      default:
        throw invalidParams(`Invalid params: unknown variant \`${c}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\`.`);
    }
  }

  epochInfo(commitment) {
    const b = this.commitmentBlock(commitment);
    const slot = BigInt(b.slot);
    return {
      absoluteSlot: b.slot,
      blockHeight: b.height,
      epoch: Number(slot / SLOTS_PER_EPOCH),
      slotIndex: Number(slot % SLOTS_PER_EPOCH),
      slotsInEpoch: Number(SLOTS_PER_EPOCH),
      transactionCount: this.transactionCount,
    };
  }

  /** blockhashValid reports whether a blockhash can still land at the block of a commitment. */
  blockhashValid(blockhash, atHeight = this.head.height) {
    const h = this.blockhashes.get(blockhash);
    return h !== undefined && h <= atHeight && atHeight - h <= MAX_PROCESSING_AGE;
  }

  // ---- accounts ----

  /** live reads an account from the bank (null when it does not exist or has no lamports). */
  live(key) {
    return snap(this.inner.getAccount(key));
  }

  /** account reads an account as of a commitment's block. */
  account(keyB58, keyBytes, commitment = 'processed') {
    const slot = this.commitmentBlock(commitment).slot;
    if (slot < this.head.slot) {
      const changes = this.journal.get(keyB58);
      if (changes) for (const c of changes) if (c.slot > slot) return c.prev;
    }
    return this.live(keyBytes ?? unbs58(keyB58));
  }

  /** programAccounts lists [address, account] owned by a program as of a commitment's block. */
  programAccounts(program, commitment = 'processed') {
    const out = new Map();
    for (const aa of this.inner.getProgramAccounts(unbs58(program))) {
      const a = snap(aa.account());
      if (a) out.set(bs58(aa.address), a);
    }
    const slot = this.commitmentBlock(commitment).slot;
    if (slot < this.head.slot) {
      for (const [key, changes] of this.journal) {
        const c = changes.find((x) => x.slot > slot);
        if (!c) continue;
        out.delete(key);
        if (c.prev && c.prev.owner === program) out.set(key, c.prev);
      }
    }
    return out;
  }

  record(key, slot, prev) {
    let changes = this.journal.get(key);
    if (!changes) this.journal.set(key, (changes = []));
    changes.push({ slot, prev });
  }

  pruneJournal() {
    const fin = this.commitmentBlock('finalized').slot;
    for (const [key, changes] of this.journal) {
      while (changes.length && changes[0].slot <= fin) changes.shift();
      if (!changes.length) this.journal.delete(key);
    }
  }

  /** setAccount writes an account directly (genesis and seeding only). */
  setAccount(keyB58, account) {
    const prev = this.live(unbs58(keyB58));
    this.inner.setAccount(unbs58(keyB58), new Account(account.lamports, account.data, unbs58(account.owner), !!account.executable, account.rentEpoch ?? U64_MAX));
    this.record(keyB58, this.head.slot, prev);
  }

  mintDecimals(mint) {
    let d = this.decimals.get(mint);
    if (d === undefined) {
      const a = this.live(unbs58(mint));
      const m = a && isTokenProgram(a.owner) ? parseMint(a.data) : null;
      if (!m) return null;
      d = m.decimals;
      this.decimals.set(mint, d);
    }
    return d;
  }

  tokenBalances(keys, accounts) {
    const out = [];
    accounts.forEach((a, i) => {
      if (!a || !isTokenProgram(a.owner)) return;
      const t = parseTokenAccount(a.data);
      if (!t) return;
      const d = this.mintDecimals(t.mint);
      if (d == null) return;
      out.push({ accountIndex: i, mint: t.mint, uiTokenAmount: tokenAmount(t.amount, d), owner: t.owner, programId: a.owner });
    });
    return out;
  }

  // ---- transactions ----

  /**
   * sanitize checks a parsed transaction as Solana's sanitizer does and resolves its address
   * lookups. It returns { keys: Uint8Array[], keysB58, writable: bool[], loaded: {writable, readonly} }
   * or throws { txError } for a lookup failure and an RpcError for a malformed transaction.
   */
  sanitize(tx, { lookups = true } = {}) {
    const h = tx.header;
    const n = tx.accountKeys.length;
    const bad = () => invalidParams('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
    if (tx.signatures && tx.signatures.length !== h.numRequiredSignatures) throw bad();
    if (h.numRequiredSignatures === 0 || h.numRequiredSignatures > n || h.numReadonlySignedAccounts >= h.numRequiredSignatures) throw bad();
    if (h.numReadonlyUnsignedAccounts > n - h.numRequiredSignatures) throw bad();
    const keysB58 = tx.accountKeys.map(bs58);
    if (new Set(keysB58).size !== n) throw invalidParams('invalid transaction: Account loaded twice');
    const loaded = { writable: [], readonly: [] };
    const lw = [];
    const lr = [];
    if (lookups) {
      for (const l of tx.lookups) {
        const t = this.live(l.accountKey);
        if (!t) throw { txError: namedTxError('AddressLookupTableNotFound') };
        if (t.owner !== ALT_PROGRAM) throw { txError: namedTxError('InvalidAddressLookupTableOwner') };
        const d = t.data;
        if (d.length < 56 || (d.length - 56) % 32 !== 0 || d[0] !== 1) throw { txError: namedTxError('InvalidAddressLookupTableData') };
        const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
        const lastExtendedSlot = dv.getBigUint64(12, true);
        let active = (d.length - 56) / 32;
        if (lastExtendedSlot === BigInt(this.head.slot)) active = d[20];
        const at = (i) => {
          if (i >= active) throw { txError: namedTxError('InvalidAddressLookupTableIndex') };
          return d.subarray(56 + 32 * i, 88 + 32 * i);
        };
        for (const i of l.writableIndexes) lw.push(at(i));
        for (const i of l.readonlyIndexes) lr.push(at(i));
      }
    }
    loaded.writable = lw.map(bs58);
    loaded.readonly = lr.map(bs58);
    const keys = [...tx.accountKeys, ...lw, ...lr];
    const total = keys.length;
    for (const ix of tx.instructions) {
      if (ix.programIdIndex === 0 || ix.programIdIndex >= n) throw bad();
      for (const a of ix.accounts) if (a >= total) throw bad();
    }
    const writable = keys.map((_, i) => (i < n ? isStaticWritable(tx, i) : i < n + lw.length));
    return { keys, keysB58: [...keysB58, ...loaded.writable, ...loaded.readonly], writable, loaded };
  }

  /** verifySignatures checks every required signature over the message (ed25519). */
  verifySignatures(tx) {
    for (let i = 0; i < tx.header.numRequiredSignatures; i++) {
      if (!verifySignature(tx.accountKeys[i], tx.message, tx.signatures[i])) return false;
    }
    return true;
  }

  /** nonceValid reports whether a transaction is a valid durable-nonce transaction (first instruction AdvanceNonceAccount). */
  nonceValid(tx, keys) {
    const ix = tx.instructions[0];
    if (!ix || bs58(keys[ix.programIdIndex]) !== SYSTEM_PROGRAM || ix.data.length < 4 || ix.data[0] !== 4 || ix.data[1] | ix.data[2] | ix.data[3]) return false;
    const nonce = ix.accounts.length ? this.live(keys[ix.accounts[0]]) : null;
    if (!nonce || nonce.owner !== SYSTEM_PROGRAM || nonce.data.length < 80) return false;
    const dv = new DataView(nonce.data.buffer, nonce.data.byteOffset, nonce.data.byteLength);
    return dv.getUint32(4, true) === 1 && equalBytes(nonce.data.subarray(40, 72), tx.recentBlockhash);
  }

  /** computeBudget reads the compute budget instructions: {unitLimit, unitPrice (micro-lamports)}. */
  static computeBudget(tx, keys) {
    let limit = null;
    let price = 0n;
    let dflt = 0;
    for (const ix of tx.instructions) {
      const prog = bs58(keys[ix.programIdIndex]);
      if (prog === COMPUTE_BUDGET_PROGRAM) {
        const d = ix.data;
        const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
        if (d[0] === 2 && d.length === 5) limit = dv.getUint32(1, true);
        if (d[0] === 3 && d.length === 9) price = dv.getBigUint64(1, true);
      }
      dflt += BUILTINS.has(prog) ? 3000 : 200000;
    }
    const unitLimit = Math.min(limit ?? dflt, 1400000);
    return { unitLimit, unitPrice: price };
  }

  /** fee is Solana's fee for a message: 5,000 lamports per signature (precompile ones included) plus the priority fee. */
  static fee(tx, keys) {
    let sigs = BigInt(tx.header.numRequiredSignatures);
    for (const ix of tx.instructions) if (PRECOMPILES.has(bs58(keys[ix.programIdIndex])) && ix.data.length) sigs += BigInt(ix.data[0]);
    const { unitLimit, unitPrice } = Chain.computeBudget(tx, keys);
    const priority = (unitPrice * BigInt(unitLimit) + 999999n) / 1000000n;
    return sigs * LAMPORTS_PER_SIGNATURE + priority;
  }

  /**
   * simulate runs a transaction without committing it and returns Solana's
   * RpcSimulateTransactionResult (plus the fields the caller needs). Options: sigVerify (LiteSVM
   * checks the signatures too), accounts: addresses whose post-state to return.
   */
  simulate(wire, tx, san, { sigVerify = false, blockhashChecked = true, accountAddresses = null } = {}) {
    const pre = san.keys.map((k) => this.live(k));
    const base = {
      err: null,
      logs: [],
      accounts: null,
      unitsConsumed: 0,
      returnData: null,
      innerInstructions: null,
      replacementBlockhash: null,
      loadedAccountsDataSize: 0,
      fee: null,
      preBalances: null,
      postBalances: null,
      preTokenBalances: null,
      postTokenBalances: null,
      loadedAddresses: san.loaded,
    };
    if (!blockhashChecked) {
      base.err = namedTxError('BlockhashNotFound').json;
      return { value: base, error: namedTxError('BlockhashNotFound') };
    }
    this.inner.setSigverify(sigVerify);
    let res;
    try {
      res = this.inner.simulateVersionedTransaction(wire);
    } finally {
      this.inner.setSigverify(true);
    }
    const failed = res instanceof FailedTransactionMetadata;
    const meta = res.meta();
    const post = pre.slice();
    const postByKey = new Map();
    if (!failed) {
      for (const aa of res.postAccounts()) postByKey.set(bs58(aa.address), snap(aa.account()));
      san.keysB58.forEach((k, i) => {
        if (postByKey.has(k)) post[i] = postByKey.get(k);
      });
    }
    const err = failed ? txError(res.err()) : null;
    base.err = err ? err.json : null;
    base.logs = meta.logs();
    base.unitsConsumed = Number(meta.computeUnitsConsumed());
    base.returnData = returnData(meta);
    base.innerInstructions = innerInstructions(meta);
    base.fee = feeOf(meta) ?? Chain.fee(tx, san.keys);
    base.loadedAccountsDataSize = pre.reduce((s, a) => s + (a ? a.data.length : 0), 0);
    base.preBalances = pre.map((a) => (a ? a.lamports : 0n));
    base.postBalances = post.map((a) => (a ? a.lamports : 0n));
    base.preTokenBalances = this.tokenBalances(san.keysB58, pre);
    base.postTokenBalances = this.tokenBalances(san.keysB58, post);
    if (accountAddresses) {
      base.accounts = accountAddresses.map((addr) => {
        if (failed) return null;
        if (postByKey.has(addr)) return postByKey.get(addr);
        return this.live(unbs58(addr));
      });
    }
    return { value: base, error: err };
  }

  /**
   * land executes a checked transaction in the head block and records it when it lands (it
   * succeeded, or it failed after its fee was charged). It returns the record, or null when the
   * transaction did not land.
   */
  land(wire, tx, san) {
    const pre = san.keys.map((k) => this.live(k));
    const res = this.inner.sendVersionedTransaction(wire);
    const post = san.keys.map((k) => this.live(k));
    const failed = res instanceof FailedTransactionMetadata;
    if (failed && sameAccount(pre[0], post[0])) return null; // nothing charged: never in a block
    const meta = failed ? res.meta() : res;
    const head = this.head;
    const signature = bs58(tx.signatures[0]);
    // modified: the accounts the transaction stored, as a bank stores them: every writable account
    // of a transaction that succeeded (changed or not), only the fee payer of one that failed.
    const modified = new Set(failed ? [san.keysB58[0]] : []);
    san.keysB58.forEach((k, i) => {
      if (!sameAccount(pre[i], post[i])) {
        this.record(k, head.slot, pre[i]);
        modified.add(k);
      } else if (!failed && san.writable[i]) modified.add(k);
    });
    const err = failed ? txError(res.err()) : null;
    const { unitPrice } = Chain.computeBudget(tx, san.keys);
    const rec = {
      signature,
      slot: head.slot,
      height: head.height,
      blockTime: head.time,
      index: head.signatures.length,
      wire,
      tx,
      keysB58: san.keysB58,
      writable: san.writable,
      loaded: san.loaded,
      err: err ? err.json : null,
      fee: feeOf(meta) ?? Chain.fee(tx, san.keys),
      preBalances: pre.map((a) => (a ? a.lamports : 0n)),
      postBalances: post.map((a) => (a ? a.lamports : 0n)),
      preTokenBalances: this.tokenBalances(san.keysB58, pre),
      postTokenBalances: this.tokenBalances(san.keysB58, post),
      logs: meta.logs(),
      innerInstructions: innerInstructions(meta),
      returnData: returnData(meta),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      unitPrice,
      memo: memoOf(tx, san.keysB58),
      modified: [...modified],
    };
    this.history.set(signature, rec);
    head.signatures.push(signature);
    this.transactionCount++;
    for (const k of new Set(san.keysB58)) {
      let l = this.byAddress.get(k);
      if (!l) this.byAddress.set(k, (l = []));
      l.push(signature);
    }
    this.emit('landed', rec);
    return rec;
  }

  /**
   * submit is sendTransaction after decoding: sanitize, verify signatures, check the blockhash and
   * duplicates, preflight unless skipped, then land. It returns the signature (base58) or throws
   * Solana's RpcError. With skipPreflight, a transaction that cannot land is accepted and dropped,
   * as a real cluster's leader drops it.
   */
  submit(wire, tx, { skipPreflight = false } = {}) {
    let san;
    try {
      san = this.sanitize(tx);
    } catch (e) {
      if (e.txError) throw invalidParams(`invalid transaction: ${e.txError.message}`);
      throw e;
    }
    const signature = bs58(tx.signatures[0]);
    if (!this.verifySignatures(tx)) {
      if (skipPreflight) return signature; // dropped at sigverify by the leader
      throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
    }
    const bhOk = this.blockhashValid(bs58(tx.recentBlockhash)) || this.nonceValid(tx, san.keys);
    const dup = this.history.has(signature);
    if (skipPreflight) {
      this.receive(signature);
      if (!bhOk || dup) return signature; // received, then dropped by the leader
    } else {
      if (dup) throw preflightFailure(namedTxError('AlreadyProcessed'), this.emptySim(san));
      const sim = this.simulate(wire, tx, san, { sigVerify: true, blockhashChecked: bhOk });
      if (sim.error) throw preflightFailure(sim.error, sim.value);
      this.receive(signature);
    }
    this.land(wire, tx, san);
    return signature;
  }

  emptySim(san) {
    return { err: null, logs: [], accounts: null, unitsConsumed: 0, returnData: null, innerInstructions: null, replacementBlockhash: null, loadedAccountsDataSize: 0, loadedAddresses: san.loaded };
  }

  /** status is a transaction's TransactionStatus as getSignatureStatuses returns it, or null. */
  status(rec) {
    const depth = this.head.height - rec.height;
    const fin = depth >= this.finalizeDepth;
    return {
      slot: rec.slot,
      confirmations: fin ? null : depth,
      err: rec.err,
      status: rec.err ? { Err: rec.err } : { Ok: null },
      confirmationStatus: fin ? 'finalized' : depth >= 1 ? 'confirmed' : 'processed',
    };
  }

  /** visibleAt reports whether a recorded transaction is included at a commitment (confirmed or finalized). */
  visibleAt(rec, commitment) {
    return rec.height <= this.commitmentBlock(commitment).height;
  }
}

function preflightFailure(err, value) {
  value.err = err.json;
  return new RpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${err.message}`, value);
}

function returnData(meta) {
  const rd = meta.returnData();
  const data = rd.data();
  if (!data.length) return null;
  return { programId: bs58(rd.programId()), data: [Buffer.from(data).toString('base64'), 'base64'] };
}

function innerInstructions(meta) {
  const out = [];
  meta.innerInstructions().forEach((list, index) => {
    if (!list.length) return;
    out.push({
      index,
      instructions: list.map((ii) => {
        const ci = ii.instruction();
        return { programIdIndex: ci.programIdIndex(), accounts: Array.from(ci.accounts()), data: bs58(ci.data()), stackHeight: ii.stackHeight() };
      }),
    });
  });
  return out;
}

function memoOf(tx, keysB58) {
  const memos = [];
  for (const ix of tx.instructions) {
    const p = keysB58[ix.programIdIndex];
    if (p === MEMO_PROGRAM || p === MEMO_V1_PROGRAM) {
      memos.push(`[${ix.data.length}] ${Buffer.from(ix.data).toString('utf8')}`);
    }
  }
  return memos.length ? memos.join('; ') : null;
}
