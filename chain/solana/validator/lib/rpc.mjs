// Solana's JSON-RPC methods over the Chain: parameter handling, encodings and response shapes as
// Agave's RPC server writes them.

import { Chain, MAX_PROCESSING_AGE, SLOTS_PER_EPOCH } from './chain.mjs';
import { b64, bs58, parseMessage, parseTransaction, unb64, unbs58, WireError, zstdFrame } from './codec.mjs';
import {
  BLOCK_NOT_AVAILABLE, INTERNAL_ERROR, INVALID_REQUEST, MIN_CONTEXT_SLOT_NOT_REACHED, METHOD_NOT_FOUND, RpcError,
  SLOT_SKIPPED, TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, UNSUPPORTED_TRANSACTION_VERSION, invalidParams,
} from './errors.mjs';
import { parsedInstruction } from './instructions.mjs';
import { accountType, isTokenProgram, parseMint, parseTokenAccount, parsedAccount, tokenAmount } from './token.mjs';

/** SOLANA_CORE is the Agave version LiteSVM 1.5.0 embeds (solana-program-runtime 4.3.0): what getVersion reports. */
export const SOLANA_CORE = '4.3.0';
const PACKET_DATA_SIZE = 1232;
const MAX_BASE58_SIZE = 1683;
const MAX_BASE64_SIZE = 1644;
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_FILTERS = 4;
const NUM_LARGEST_ACCOUNTS = 20;

// ---- parameter helpers ----

const opt = (v) => (v === null ? undefined : v);

/** config is the config object at params[i] ({} when absent), without its null members. */
export function config(params, i) {
  const c = opt(params[i]);
  if (c === undefined) return {};
  if (typeof c !== 'object' || Array.isArray(c)) throw invalidParams(`Invalid params: invalid type: expected a config object at position ${i}.`);
  const out = {};
  for (const [k, v] of Object.entries(c)) if (v !== null) out[k] = v;
  return out;
}

/** required is params[i], or an invalid-params error naming what was expected. */
export function required(params, i, what) {
  const v = opt(params[i]);
  if (v === undefined) throw invalidParams(`Invalid params: invalid length ${params.length}, expected ${what}.`);
  return v;
}

function address(s) {
  if (typeof s !== 'string') throw invalidParams('Invalid params: invalid type: expected a base58 string.');
  const b = unbs58(s);
  if (!b) throw invalidParams('Invalid param: Invalid');
  if (b.length !== 32) throw invalidParams('Invalid param: WrongSize');
  return b;
}

function signatureParam(s) {
  const b = typeof s === 'string' && s.length <= 88 ? unbs58(s) : null;
  if (!b || b.length !== 64) throw invalidParams('Invalid param: Invalid');
  return s;
}

/** u64Param checks a u64 parameter given as a JSON number. */
export function u64Param(v, what) {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw invalidParams(`Invalid params: invalid type: expected u64 for ${what}.`);
  return v;
}

function noBelowConfirmed(commitment) {
  if (commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
}

// ---- the methods ----

/**
 * Rpc answers Solana JSON-RPC calls. faucet: the keypair requestAirdrop sends from.
 */
export class Rpc {
  constructor(chain, { faucet, identity }) {
    this.chain = chain;
    this.faucet = faucet;
    this.identity = identity;
    this.featureSet = featureSetId(SOLANA_CORE);
  }

  ctx(commitment, cfg) {
    const b = this.chain.commitmentBlock(commitment);
    if (cfg && cfg.minContextSlot !== undefined && b.slot < cfg.minContextSlot) {
      throw new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: b.slot });
    }
    return { slot: b.slot, apiVersion: SOLANA_CORE };
  }

  /** call runs one method; it throws RpcError. */
  call(method, params) {
    if (params === undefined || params === null) params = [];
    if (!Array.isArray(params)) throw invalidParams('Invalid params: invalid type: map, expected a sequence.');
    const f = METHODS[method];
    if (!f) throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
    return f.call(this, params);
  }

  // ---- encodings ----

  /**
   * encodeAccount is Solana's UiAccount in an encoding, its data sliced by slice ({offset,
   * length}). binary and base58 refuse data over 128 bytes, as the HTTP methods do, unless
   * sizeChecked is false (PubSub notifications encode any size). jsonParsed parses token accounts
   * whole and falls back to base64 of the (sliced) data for anything else.
   */
  encodeAccount(a, encoding, slice, commitment, { sizeChecked = true } = {}) {
    if (!a) return null;
    let data = a.data;
    if (slice) {
      const off = Math.min(slice.offset, data.length);
      data = data.subarray(off, Math.min(data.length, off + slice.length));
    }
    let enc;
    switch (encoding) {
      case 'binary':
        if (sizeChecked && data.length > 128) throw new RpcError(INVALID_REQUEST, 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
        enc = bs58(data);
        break;
      case 'base58':
        if (sizeChecked && data.length > 128) throw new RpcError(INVALID_REQUEST, 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
        enc = [bs58(data), 'base58'];
        break;
      case 'base64':
        enc = [b64(data), 'base64'];
        break;
      case 'base64+zstd':
        enc = [b64(zstdFrame(data)), 'base64+zstd'];
        break;
      case 'jsonParsed': {
        const p = isTokenProgram(a.owner) ? parsedAccount(a.owner, a.data, (m) => this.chain.mintDecimals(m)) : null;
        enc = p ?? [b64(data), 'base64'];
        break;
      }
      default:
        throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\`.`);
    }
    return { data: enc, executable: a.executable, lamports: a.lamports, owner: a.owner, rentEpoch: a.rentEpoch, space: a.data.length };
  }

  accountConfig(cfg, defaultEncoding) {
    const commitment = Chain.commitment(cfg.commitment);
    const encoding = cfg.encoding ?? defaultEncoding;
    let slice = null;
    if (cfg.dataSlice) {
      const { offset, length } = cfg.dataSlice;
      slice = { offset: u64Param(offset, 'dataSlice.offset'), length: u64Param(length, 'dataSlice.length') };
      if (encoding === 'jsonParsed') throw new RpcError(INVALID_REQUEST, 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.');
    }
    return { commitment, encoding, slice };
  }

  decodeTx(encoded, encoding) {
    if (typeof encoded !== 'string') throw invalidParams('Invalid params: invalid type: expected an encoded transaction string.');
    let bytes;
    if (encoding === 'base58') {
      if (encoded.length > MAX_BASE58_SIZE) {
        throw invalidParams(`base58 encoded solana_transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE58_SIZE}/${PACKET_DATA_SIZE})`);
      }
      bytes = unbs58(encoded);
      if (!bytes) throw invalidParams('invalid base58 encoding: InvalidCharacter');
    } else if (encoding === 'base64') {
      if (encoded.length > MAX_BASE64_SIZE) {
        throw invalidParams(`base64 encoded solana_transaction::versioned::VersionedTransaction too large: ${encoded.length} bytes (max: encoded/raw ${MAX_BASE64_SIZE}/${PACKET_DATA_SIZE})`);
      }
      bytes = unb64(encoded);
      if (!bytes) throw invalidParams('invalid base64 encoding: InvalidByte');
    } else {
      throw invalidParams(`unsupported encoding: ${encoding}. Supported encodings: base58, base64`);
    }
    if (bytes.length > PACKET_DATA_SIZE) {
      throw invalidParams(`decoded solana_transaction::versioned::VersionedTransaction too large: ${bytes.length} bytes (max: ${PACKET_DATA_SIZE} bytes)`);
    }
    try {
      return { wire: new Uint8Array(bytes), tx: parseTransaction(new Uint8Array(bytes)) };
    } catch (e) {
      if (e instanceof WireError) throw invalidParams(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${e.message}`);
      throw e;
    }
  }

  tokenAccountsFor(program, match) {
    const out = [];
    for (const p of program) {
      for (const [key, a] of this.chain.programAccounts(p, match.commitment)) {
        if (accountType(a.data) !== 'account') continue;
        const t = parseTokenAccount(a.data);
        if (!t || !match.test(t)) continue;
        out.push([key, a]);
      }
    }
    return out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  }

  mintFilterPrograms(filter, commitment) {
    if (!filter || typeof filter !== 'object') throw invalidParams('Invalid params: expected a filter object with mint or programId.');
    if (filter.mint != null) {
      const m = this.chain.account(filter.mint, address(filter.mint), commitment);
      if (!m) throw invalidParams('Invalid param: could not find mint');
      if (!isTokenProgram(m.owner)) throw invalidParams('Invalid param: not a Token mint');
      return { programs: [m.owner], mint: filter.mint };
    }
    if (filter.programId != null) {
      address(filter.programId);
      if (!isTokenProgram(filter.programId)) throw invalidParams('Invalid param: unrecognized Token program id');
      return { programs: [filter.programId], mint: null };
    }
    throw invalidParams('Invalid params: expected a filter object with mint or programId.');
  }

  tokenMint(mintB58, commitment) {
    const a = this.chain.account(mintB58, address(mintB58), commitment);
    const m = a && isTokenProgram(a.owner) ? parseMint(a.data) : null;
    if (!m) throw invalidParams('Invalid param: not a Token mint');
    return { account: a, mint: m };
  }

  encodeTransaction(rec, encoding) {
    const tx = rec.tx;
    switch (encoding) {
      case 'base64':
        return [b64(rec.wire), 'base64'];
      case 'base58':
        return [bs58(rec.wire), 'base58'];
      case 'json': {
        const message = {
          accountKeys: tx.accountKeys.map(bs58),
          header: tx.header,
          recentBlockhash: bs58(tx.recentBlockhash),
          instructions: tx.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: bs58(ix.data), stackHeight: null })),
        };
        if (tx.version === 0) message.addressTableLookups = lookupsJson(tx);
        return { signatures: tx.signatures.map(bs58), message };
      }
      case 'jsonParsed': {
        const nStatic = tx.accountKeys.length;
        const message = {
          accountKeys: rec.keysB58.map((k, i) => ({ pubkey: k, writable: rec.writable[i], signer: i < tx.header.numRequiredSignatures, source: i < nStatic ? 'transaction' : 'lookupTable' })),
          recentBlockhash: bs58(tx.recentBlockhash),
          instructions: tx.instructions.map((ix) => parsedInstruction(rec.keysB58, ix.programIdIndex, ix.accounts, ix.data, null)),
        };
        if (tx.version === 0) message.addressTableLookups = lookupsJson(tx);
        return { signatures: tx.signatures.map(bs58), message };
      }
      default:
        throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\`.`);
    }
  }

  transactionMeta(rec, encoding) {
    const parsed = encoding === 'jsonParsed';
    const meta = {
      err: rec.err,
      status: rec.err ? { Err: rec.err } : { Ok: null },
      fee: rec.fee,
      preBalances: rec.preBalances,
      postBalances: rec.postBalances,
      innerInstructions: parsed
        ? rec.innerInstructions.map((g) => ({
            index: g.index,
            instructions: g.instructions.map((ii) => parsedInstruction(rec.keysB58, ii.programIdIndex, ii.accounts, unbs58(ii.data), ii.stackHeight)),
          }))
        : rec.innerInstructions,
      logMessages: rec.logs,
      preTokenBalances: rec.preTokenBalances,
      postTokenBalances: rec.postTokenBalances,
      rewards: [],
    };
    if (!parsed) meta.loadedAddresses = rec.loaded;
    if (rec.returnData) meta.returnData = rec.returnData;
    meta.computeUnitsConsumed = rec.computeUnitsConsumed;
    return meta;
  }
}

const lookupsJson = (tx) => tx.lookups.map((l) => ({ accountKey: bs58(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes }));

/** featureSetId is a stable u32 for getVersion's feature-set (FNV-1a of the version). */
function featureSetId(s) {
  let h = 2166136261;
  for (const c of Buffer.from(s)) h = Math.imul(h ^ c, 16777619) >>> 0;
  return h;
}

const METHODS = {
  getVersion() {
    return { 'solana-core': SOLANA_CORE, 'feature-set': this.featureSet };
  },
  getGenesisHash() {
    return this.chain.genesisHash;
  },
  getHealth() {
    return 'ok';
  },
  getIdentity() {
    return { identity: this.identity };
  },
  getSlot(params) {
    const cfg = config(params, 0);
    return this.ctx(Chain.commitment(cfg.commitment), cfg).slot;
  },
  getBlockHeight(params) {
    const cfg = config(params, 0);
    const c = Chain.commitment(cfg.commitment);
    this.ctx(c, cfg);
    return this.chain.commitmentBlock(c).height;
  },
  getTransactionCount(params) {
    const cfg = config(params, 0);
    this.ctx(Chain.commitment(cfg.commitment), cfg);
    return this.chain.transactionCount;
  },
  getFirstAvailableBlock() {
    return 0;
  },
  minimumLedgerSlot() {
    return 0;
  },
  getEpochInfo(params) {
    const cfg = config(params, 0);
    const c = Chain.commitment(cfg.commitment);
    this.ctx(c, cfg);
    return this.chain.epochInfo(c);
  },
  getEpochSchedule() {
    const n = Number(SLOTS_PER_EPOCH);
    return { firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: n, slotsPerEpoch: n, warmup: false };
  },
  getBlockTime(params) {
    const slot = u64Param(required(params, 0, 'a slot'), 'slot');
    const head = this.chain.head;
    if (slot > head.slot) throw new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
    const b = this.chain.blocks.find((x) => x.slot === slot);
    if (b) return b.time;
    if (slot >= this.chain.blocks[0].slot) throw new RpcError(SLOT_SKIPPED, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
    throw new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
  },
  getLatestBlockhash(params) {
    const cfg = config(params, 0);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const b = this.chain.commitmentBlock(c);
    return { context, value: { blockhash: b.blockhash, lastValidBlockHeight: b.height + MAX_PROCESSING_AGE } };
  },
  isBlockhashValid(params) {
    const hash = required(params, 0, 'a blockhash');
    const h = typeof hash === 'string' ? unbs58(hash) : null;
    if (!h || h.length !== 32) throw invalidParams('Invalid param: Invalid');
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    return { context, value: this.chain.blockhashValid(hash, this.chain.commitmentBlock(c).height) };
  },
  getMinimumBalanceForRentExemption(params) {
    const size = u64Param(required(params, 0, 'a data length'), 'data length');
    config(params, 1);
    return this.chain.inner.minimumBalanceForRentExemption(BigInt(size));
  },
  getBalance(params) {
    const key = required(params, 0, 'a pubkey');
    const kb = address(key);
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const a = this.chain.account(key, kb, c);
    return { context, value: a ? a.lamports : 0 };
  },
  getAccountInfo(params) {
    const key = required(params, 0, 'a pubkey');
    const kb = address(key);
    const cfg = config(params, 1);
    const { commitment, encoding, slice } = this.accountConfig(cfg, 'binary');
    const context = this.ctx(commitment, cfg);
    return { context, value: this.encodeAccount(this.chain.account(key, kb, commitment), encoding, slice, commitment) };
  },
  getMultipleAccounts(params) {
    const keys = required(params, 0, 'an array of pubkeys');
    if (!Array.isArray(keys)) throw invalidParams('Invalid params: invalid type: expected a sequence of pubkeys.');
    if (keys.length > MAX_MULTIPLE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    const kbs = keys.map(address);
    const cfg = config(params, 1);
    const { commitment, encoding, slice } = this.accountConfig(cfg, 'base64');
    const context = this.ctx(commitment, cfg);
    return { context, value: keys.map((k, i) => this.encodeAccount(this.chain.account(k, kbs[i], commitment), encoding, slice, commitment)) };
  },
  getProgramAccounts(params) {
    const program = required(params, 0, 'a program id');
    address(program);
    const cfg = config(params, 1);
    const { commitment, encoding, slice } = this.accountConfig(cfg, 'binary');
    const context = this.ctx(commitment, cfg);
    const filters = compileFilters(cfg.filters);
    const out = [];
    const accounts = [...this.chain.programAccounts(program, commitment)].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    for (const [key, a] of accounts) {
      if (filters.every((f) => f(a.data))) out.push({ pubkey: key, account: this.encodeAccount(a, encoding, slice, commitment) });
    }
    return cfg.withContext ? { context, value: out } : out;
  },
  getTokenAccountsByOwner(params) {
    const owner = required(params, 0, 'an owner pubkey');
    address(owner);
    const filter = required(params, 1, 'a mint or programId filter');
    const cfg = config(params, 2);
    const { commitment, encoding, slice } = this.accountConfig(cfg, 'binary');
    const context = this.ctx(commitment, cfg);
    const { programs, mint } = this.mintFilterPrograms(filter, commitment);
    const list = this.tokenAccountsFor(programs, { commitment, test: (t) => t.owner === owner && (!mint || t.mint === mint) });
    return { context, value: list.map(([key, a]) => ({ pubkey: key, account: this.encodeAccount(a, encoding, slice, commitment) })) };
  },
  getTokenAccountsByDelegate(params) {
    const delegate = required(params, 0, 'a delegate pubkey');
    address(delegate);
    const filter = required(params, 1, 'a mint or programId filter');
    const cfg = config(params, 2);
    const { commitment, encoding, slice } = this.accountConfig(cfg, 'binary');
    const context = this.ctx(commitment, cfg);
    const { programs, mint } = this.mintFilterPrograms(filter, commitment);
    const list = this.tokenAccountsFor(programs, { commitment, test: (t) => t.delegate === delegate && (!mint || t.mint === mint) });
    return { context, value: list.map(([key, a]) => ({ pubkey: key, account: this.encodeAccount(a, encoding, slice, commitment) })) };
  },
  getTokenAccountBalance(params) {
    const key = required(params, 0, 'a token account');
    const kb = address(key);
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const a = this.chain.account(key, kb, c);
    const t = a && isTokenProgram(a.owner) ? parseTokenAccount(a.data) : null;
    if (!t) throw invalidParams('Invalid param: not a Token account');
    const d = this.chain.mintDecimals(t.mint);
    if (d == null) throw invalidParams('Invalid param: could not find mint');
    return { context, value: tokenAmount(t.amount, d) };
  },
  getTokenSupply(params) {
    const key = required(params, 0, 'a mint');
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const { mint } = this.tokenMint(key, c);
    return { context, value: tokenAmount(mint.supply, mint.decimals) };
  },
  getTokenLargestAccounts(params) {
    const key = required(params, 0, 'a mint');
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const { account, mint } = this.tokenMint(key, c);
    const list = this.tokenAccountsFor([account.owner], { commitment: c, test: (t) => t.mint === key })
      .map(([addr, a]) => [addr, parseTokenAccount(a.data).amount])
      .sort((x, y) => (y[1] > x[1] ? 1 : y[1] < x[1] ? -1 : x[0] < y[0] ? -1 : 1))
      .slice(0, NUM_LARGEST_ACCOUNTS);
    return { context, value: list.map(([addr, amount]) => ({ address: addr, ...tokenAmount(amount, mint.decimals) })) };
  },
  getSignatureStatuses(params) {
    const sigs = required(params, 0, 'an array of signatures');
    if (!Array.isArray(sigs)) throw invalidParams('Invalid params: invalid type: expected a sequence of signatures.');
    if (sigs.length > MAX_SIGNATURE_STATUSES) throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    sigs.forEach(signatureParam);
    const cfg = config(params, 1);
    const head = this.chain.head;
    const value = sigs.map((s) => {
      const rec = this.chain.history.get(s);
      if (!rec) return null;
      // Without searchTransactionHistory only the status cache answers (the last 300 blocks).
      if (!cfg.searchTransactionHistory && head.height - rec.height > 300) return null;
      return this.chain.status(rec);
    });
    return { context: this.ctx('processed'), value };
  },
  getSignaturesForAddress(params) {
    const key = required(params, 0, 'an address');
    address(key);
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    noBelowConfirmed(c);
    this.ctx(c, cfg);
    const limit = cfg.limit ?? 1000;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams('Invalid limit; max 1000');
    if (cfg.before) signatureParam(cfg.before);
    if (cfg.until) signatureParam(cfg.until);
    const list = this.chain.byAddress.get(key) ?? [];
    const out = [];
    let i = list.length - 1;
    if (cfg.before) {
      const j = list.lastIndexOf(cfg.before);
      if (j < 0) return [];
      i = j - 1;
    }
    for (; i >= 0 && out.length < limit; i--) {
      const sig = list[i];
      if (sig === cfg.until) break;
      const rec = this.chain.history.get(sig);
      if (!this.chain.visibleAt(rec, c)) continue;
      out.push({ signature: sig, slot: rec.slot, err: rec.err, memo: rec.memo, blockTime: rec.blockTime, confirmationStatus: this.chain.status(rec).confirmationStatus });
    }
    return out;
  },
  getTransaction(params) {
    const sig = signatureParam(required(params, 0, 'a signature'));
    let cfg;
    if (typeof params[1] === 'string') cfg = { encoding: params[1] };
    else cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    noBelowConfirmed(c);
    const encoding = cfg.encoding ?? 'json';
    if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) this.encodeTransaction({ tx: {} }, encoding);
    const rec = this.chain.history.get(sig);
    if (!rec || !this.chain.visibleAt(rec, c)) return null;
    const max = cfg.maxSupportedTransactionVersion;
    if (max !== undefined && max !== 0) throw invalidParams(`Invalid params: unsupported maxSupportedTransactionVersion ${max}.`);
    if (rec.tx.version !== 'legacy' && max === undefined) {
      throw new RpcError(
        UNSUPPORTED_TRANSACTION_VERSION,
        `Transaction version (${rec.tx.version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${rec.tx.version}`,
      );
    }
    const out = { slot: rec.slot, transaction: this.encodeTransaction(rec, encoding), meta: this.transactionMeta(rec, encoding), blockTime: rec.blockTime };
    if (max !== undefined) out.version = rec.tx.version;
    return out;
  },
  sendTransaction(params) {
    const encoded = required(params, 0, 'an encoded transaction');
    const cfg = config(params, 1);
    if (cfg.preflightCommitment !== undefined) Chain.commitment(cfg.preflightCommitment);
    this.ctx('processed', cfg);
    const { wire, tx } = this.decodeTx(encoded, cfg.encoding ?? 'base58');
    if (tx.signatures.length === 0) throw invalidParams('invalid transaction: Transaction failed to sanitize accounts offsets correctly');
    return this.chain.submit(wire, tx, { skipPreflight: !!cfg.skipPreflight });
  },
  simulateTransaction(params) {
    const encoded = required(params, 0, 'an encoded transaction');
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    if (cfg.sigVerify && cfg.replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
    let { wire, tx } = this.decodeTx(encoded, cfg.encoding ?? 'base58');
    let san;
    try {
      san = this.chain.sanitize(tx);
    } catch (e) {
      if (e.txError) throw invalidParams(`invalid transaction: ${e.txError.message}`);
      throw e;
    }
    if (cfg.sigVerify && !this.chain.verifySignatures(tx)) {
      throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
    }
    let replacement = null;
    if (cfg.replaceRecentBlockhash) {
      const b = this.chain.commitmentBlock(c);
      const off = tx.recentBlockhash.byteOffset - wire.byteOffset;
      wire = wire.slice();
      wire.set(unbs58(b.blockhash), off);
      tx = parseTransaction(wire);
      replacement = { blockhash: b.blockhash, lastValidBlockHeight: b.height + MAX_PROCESSING_AGE };
    }
    const bhOk = this.chain.blockhashValid(bs58(tx.recentBlockhash)) || this.chain.nonceValid(tx, san.keys);
    let addresses = null;
    let accEncoding = 'base64';
    if (cfg.accounts) {
      addresses = cfg.accounts.addresses ?? [];
      if (!Array.isArray(addresses)) throw invalidParams('Invalid params: accounts.addresses must be an array.');
      if (addresses.length > san.keys.length) throw invalidParams(`Too many accounts provided; max ${san.keys.length}`);
      addresses.forEach(address);
      accEncoding = cfg.accounts.encoding ?? 'base64';
      if (accEncoding === 'binary' || accEncoding === 'base58') throw invalidParams('base58 encoding not supported');
    }
    const sim = this.chain.simulate(wire, tx, san, { sigVerify: !!cfg.sigVerify, blockhashChecked: bhOk, accountAddresses: addresses });
    const value = sim.value;
    value.replacementBlockhash = replacement;
    if (!cfg.innerInstructions) value.innerInstructions = null;
    if (value.accounts) value.accounts = value.accounts.map((a) => this.encodeAccount(a, accEncoding, null, 'processed'));
    return { context, value };
  },
  requestAirdrop(params) {
    const key = required(params, 0, 'a pubkey');
    const kb = address(key);
    const lamports = u64Param(required(params, 1, 'lamports'), 'lamports');
    const cfg = config(params, 2);
    if (cfg.commitment !== undefined) Chain.commitment(cfg.commitment);
    const rec = this.faucet(kb, BigInt(lamports));
    if (!rec) throw new RpcError(INTERNAL_ERROR, 'airdrop request failed. This can happen when the rate limit is reached.');
    return rec;
  },
  getFeeForMessage(params) {
    const encoded = required(params, 0, 'a base64 message');
    const cfg = config(params, 1);
    const c = Chain.commitment(cfg.commitment);
    const context = this.ctx(c, cfg);
    const bytes = typeof encoded === 'string' ? unb64(encoded) : null;
    if (!bytes) throw invalidParams('invalid base64 encoding: InvalidByte');
    let msg;
    try {
      msg = parseMessage(bytes);
    } catch (e) {
      if (e instanceof WireError) throw invalidParams(`failed to deserialize solana_message::VersionedMessage: ${e.message}`);
      throw e;
    }
    let san;
    try {
      san = this.chain.sanitize({ ...msg, signatures: null });
    } catch (e) {
      if (e.txError) throw invalidParams(`invalid transaction: ${e.txError.message}`);
      throw e;
    }
    if (!this.chain.blockhashValid(bs58(msg.recentBlockhash), this.chain.commitmentBlock(c).height)) return { context, value: null };
    return { context, value: Chain.fee(msg, san.keys) };
  },
  getRecentPrioritizationFees(params) {
    const keys = opt(params[0]) ?? [];
    if (!Array.isArray(keys)) throw invalidParams('Invalid params: invalid type: expected a sequence of pubkeys.');
    if (keys.length > 128) throw invalidParams('Too many inputs provided; max 128');
    keys.forEach(address);
    const blocks = this.chain.blocks.slice(-MAX_PROCESSING_AGE);
    return blocks.map((b) => {
      const recs = b.signatures.map((s) => this.chain.history.get(s));
      const minFor = (pred) => {
        let min = null;
        for (const r of recs) if (pred(r) && (min === null || r.unitPrice < min)) min = r.unitPrice;
        return min ?? 0n;
      };
      let fee;
      if (!keys.length) fee = minFor(() => true);
      else {
        fee = 0n;
        for (const k of keys) {
          const f = minFor((r) => r.keysB58.some((x, i) => x === k && r.writable[i]));
          if (f > fee) fee = f;
        }
      }
      return { slot: b.slot, prioritizationFee: fee };
    });
  },
};

/** compileFilters checks getProgramAccounts' filters (memcmp, dataSize, tokenAccountState) and returns predicates over account data. */
export function compileFilters(filters) {
  if (filters === undefined) return [];
  if (!Array.isArray(filters)) throw invalidParams('Invalid params: filters must be an array.');
  if (filters.length > MAX_FILTERS) throw invalidParams(`Too many filters provided; max ${MAX_FILTERS}`);
  return filters.map((f) => {
    if (f && f.dataSize !== undefined && f.dataSize !== null) {
      const n = u64Param(f.dataSize, 'dataSize');
      return (d) => d.length === n;
    }
    if (f && f.memcmp) {
      const { offset, bytes, encoding } = f.memcmp;
      u64Param(offset, 'memcmp.offset');
      let want;
      if (encoding === 'base64') {
        if (typeof bytes !== 'string' || bytes.length > 172) throw invalidParams('Invalid param: DataTooLarge');
        want = unb64(bytes);
        if (!want) throw invalidParams('Invalid param: DecodeError(InvalidByte)');
      } else if (encoding === undefined || encoding === null || encoding === 'base58') {
        if (typeof bytes !== 'string' || bytes.length > 175) throw invalidParams('Invalid param: DataTooLarge');
        want = unbs58(bytes);
        if (!want) throw invalidParams('Invalid param: Base58DataTooLarge');
      } else throw invalidParams(`Invalid params: unknown variant \`${encoding}\`, expected \`base58\` or \`base64\`.`);
      if (want.length > 128) throw invalidParams('Invalid param: DataTooLarge');
      const w = Buffer.from(want);
      return (d) => offset + w.length <= d.length && w.equals(Buffer.from(d.buffer, d.byteOffset + offset, w.length));
    }
    if (f && f.tokenAccountState !== undefined) {
      return (d) => {
        const t = accountType(d) === 'account' ? parseTokenAccount(d) : null;
        return !!t;
      };
    }
    throw invalidParams('Invalid params: unknown filter; expected dataSize, memcmp or tokenAccountState.');
  });
}

