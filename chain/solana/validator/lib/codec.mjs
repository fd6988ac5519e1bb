// Wire codecs of Solana: base58, compact-u16 ("shortvec"), the transaction and message formats
// (legacy and v0), ed25519 keys and signatures (node:crypto), and JSON with exact u64s.

import { createHash, createPrivateKey, createPublicKey, sign as edSign, verify as edVerify } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ALPHABET_MAP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) ALPHABET_MAP[ALPHABET.charCodeAt(i)] = i;

/** bs58 encodes bytes in Bitcoin's base58 alphabet (Solana's addresses, signatures, hashes). */
export function bs58(bytes) {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i];
    for (let j = 0; j < digits.length; j++) {
      carry += digits[j] << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]];
  return out;
}

/** unbs58 decodes base58; it returns null for a character outside the alphabet. */
export function unbs58(str) {
  if (typeof str !== 'string') return null;
  let zeros = 0;
  while (zeros < str.length && str[zeros] === '1') zeros++;
  const bytes = [];
  for (let i = zeros; i < str.length; i++) {
    const c = str.charCodeAt(i);
    const v = c < 128 ? ALPHABET_MAP[c] : -1;
    if (v < 0) return null;
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += bytes[j] * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let i = 0; i < bytes.length; i++) out[zeros + i] = bytes[bytes.length - 1 - i];
  return out;
}

/** pubkey decodes a base58 address of exactly 32 bytes, or returns null. */
export function pubkey(str) {
  if (typeof str !== 'string' || str.length < 32 || str.length > 44) return null;
  const b = unbs58(str);
  return b && b.length === 32 ? b : null;
}

export const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/** unb64 decodes strict base64 (padding optional) or returns null. */
export function unb64(str) {
  if (typeof str !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(str)) return null;
  const buf = Buffer.from(str, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

export const sha256 = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

export const equalBytes = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

export const concat = (...parts) => {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

// ---- compact-u16 ----

export function shortvec(n) {
  const out = [];
  for (;;) {
    let b = n & 0x7f;
    n >>= 7;
    if (n === 0) {
      out.push(b);
      return Uint8Array.from(out);
    }
    out.push(b | 0x80);
  }
}

/** Reader reads little-endian fields and compact-u16s; any overrun throws a WireError. */
export class WireError extends Error {}

class Reader {
  constructor(bytes) {
    this.b = bytes;
    this.o = 0;
  }
  need(n) {
    if (this.o + n > this.b.length) throw new WireError('io error: unexpected end of file');
  }
  u8() {
    this.need(1);
    return this.b[this.o++];
  }
  bytes(n) {
    this.need(n);
    const out = this.b.subarray(this.o, this.o + n);
    this.o += n;
    return out;
  }
  shortvec() {
    let n = 0;
    for (let i = 0; i < 3; i++) {
      const b = this.u8();
      n |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) {
        if (i > 0 && b === 0) throw new WireError('invalid compact-u16: alias');
        return n;
      }
    }
    throw new WireError('invalid compact-u16: too long');
  }
}

// ---- transactions ----

/**
 * parseTransaction decodes a wire transaction (legacy or v0). It returns
 * { signatures: Uint8Array[], message: Uint8Array (the signed bytes), version: 'legacy'|0,
 *   header: {numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts},
 *   accountKeys: Uint8Array[], recentBlockhash: Uint8Array,
 *   instructions: [{programIdIndex, accounts: number[], data: Uint8Array}],
 *   lookups: [{accountKey, writableIndexes: number[], readonlyIndexes: number[]}] }.
 * It throws WireError on malformed bytes (trailing bytes included).
 */
export function parseTransaction(bytes) {
  const r = new Reader(bytes);
  const nsig = r.shortvec();
  const signatures = [];
  for (let i = 0; i < nsig; i++) signatures.push(r.bytes(64));
  const start = r.o;
  const msg = parseMessageFrom(r);
  if (r.o !== bytes.length) throw new WireError('trailing bytes after the transaction');
  return { signatures, message: bytes.subarray(start), ...msg };
}

/** parseMessage decodes a serialized message (what getFeeForMessage takes). */
export function parseMessage(bytes) {
  const r = new Reader(bytes);
  const msg = parseMessageFrom(r);
  if (r.o !== bytes.length) throw new WireError('trailing bytes after the message');
  return { message: bytes, ...msg };
}

function parseMessageFrom(r) {
  let version = 'legacy';
  let first = r.u8();
  if (first & 0x80) {
    version = first & 0x7f;
    if (version !== 0) throw new WireError(`unsupported transaction version ${version}`);
    first = r.u8();
  }
  const header = { numRequiredSignatures: first, numReadonlySignedAccounts: r.u8(), numReadonlyUnsignedAccounts: r.u8() };
  const nkeys = r.shortvec();
  const accountKeys = [];
  for (let i = 0; i < nkeys; i++) accountKeys.push(r.bytes(32));
  const recentBlockhash = r.bytes(32);
  const nix = r.shortvec();
  const instructions = [];
  for (let i = 0; i < nix; i++) {
    const programIdIndex = r.u8();
    const na = r.shortvec();
    const accounts = Array.from(r.bytes(na));
    const nd = r.shortvec();
    instructions.push({ programIdIndex, accounts, data: r.bytes(nd) });
  }
  const lookups = [];
  if (version === 0) {
    const nl = r.shortvec();
    for (let i = 0; i < nl; i++) {
      const accountKey = r.bytes(32);
      const writableIndexes = Array.from(r.bytes(r.shortvec()));
      const readonlyIndexes = Array.from(r.bytes(r.shortvec()));
      lookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  return { version, header, accountKeys, recentBlockhash, instructions, lookups };
}

/** isStaticWritable reports whether static account key i is writable per the message header. */
export function isStaticWritable(tx, i) {
  const h = tx.header;
  const n = tx.accountKeys.length;
  if (i < h.numRequiredSignatures) return i < h.numRequiredSignatures - h.numReadonlySignedAccounts;
  return i < n - h.numReadonlyUnsignedAccounts;
}

/**
 * compileLegacy builds a legacy message: feePayer (bytes), instructions
 * [{programId, keys: [{pubkey, isSigner, isWritable}], data}], recentBlockhash (bytes).
 * Accounts are ordered as Solana's compiler orders them: writable signers (payer first),
 * readonly signers, writable non-signers, readonly non-signers.
 */
export function compileLegacy(feePayer, instructions, recentBlockhash) {
  const metas = new Map();
  const add = (key, signer, writable) => {
    const k = bs58(key);
    const m = metas.get(k);
    if (m) {
      m.signer ||= signer;
      m.writable ||= writable;
    } else metas.set(k, { key, signer, writable, order: metas.size });
  };
  add(feePayer, true, true);
  for (const ix of instructions) {
    for (const a of ix.keys) add(a.pubkey, a.isSigner, a.isWritable);
    add(ix.programId, false, false);
  }
  const all = [...metas.values()];
  const payer = all[0];
  const rank = (m) => (m === payer ? -1 : m.signer ? (m.writable ? 0 : 1) : m.writable ? 2 : 3);
  all.sort((a, b) => rank(a) - rank(b) || a.order - b.order);
  const index = new Map(all.map((m, i) => [bs58(m.key), i]));
  const header = [
    all.filter((m) => m.signer).length,
    all.filter((m) => m.signer && !m.writable).length,
    all.filter((m) => !m.signer && !m.writable).length,
  ];
  const parts = [Uint8Array.from(header), shortvec(all.length), ...all.map((m) => m.key), recentBlockhash, shortvec(instructions.length)];
  for (const ix of instructions) {
    parts.push(Uint8Array.of(index.get(bs58(ix.programId))));
    parts.push(shortvec(ix.keys.length), Uint8Array.from(ix.keys.map((a) => index.get(bs58(a.pubkey)))));
    parts.push(shortvec(ix.data.length), ix.data);
  }
  return { message: concat(...parts), signers: all.filter((m) => m.signer).map((m) => m.key) };
}

/** signTransaction signs a compiled message with keypairs (by public key) and returns the wire bytes. */
export function signTransaction(message, signers, keypairs) {
  const sigs = signers.map((pk) => {
    const kp = keypairs.find((k) => equalBytes(k.publicKey, pk));
    if (!kp) throw new Error(`no keypair for signer ${bs58(pk)}`);
    return kp.sign(message);
  });
  return concat(shortvec(sigs.length), ...sigs, message);
}

// ---- ed25519 ----

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Keypair is an ed25519 keypair: publicKey (32 bytes), secretKey (64 bytes: seed || public key, Solana's format). */
export class Keypair {
  constructor(seed32) {
    this.key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seed32)]), format: 'der', type: 'pkcs8' });
    const spki = createPublicKey(this.key).export({ format: 'der', type: 'spki' });
    this.publicKey = new Uint8Array(spki.subarray(SPKI_PREFIX.length));
    this.secretKey = concat(seed32, this.publicKey);
    this.address = bs58(this.publicKey);
    this.secretKeyB58 = bs58(this.secretKey);
  }
  /** fromSeed derives a keypair deterministically from a label: its ed25519 seed is SHA-256(label). */
  static fromLabel(label) {
    return new Keypair(sha256(Buffer.from(label, 'utf8')));
  }
  sign(message) {
    return new Uint8Array(edSign(null, message, this.key));
  }
}

const pubKeyCache = new Map();

/** verifySignature checks an ed25519 signature; a key that is not a valid point fails. */
export function verifySignature(publicKey, message, signature) {
  const k = bs58(publicKey);
  let key = pubKeyCache.get(k);
  if (!key) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKey)]), format: 'der', type: 'spki' });
    } catch {
      return false;
    }
    if (pubKeyCache.size > 10000) pubKeyCache.clear();
    pubKeyCache.set(k, key);
  }
  try {
    return edVerify(null, message, key, signature);
  } catch {
    return false;
  }
}

// ---- JSON with u64 ----

const BIG = '\u0000big:';

/** stringify is JSON.stringify that writes BigInts as exact JSON numbers (u64 lamports, rentEpoch). */
export function stringify(value) {
  let found = false;
  const s = JSON.stringify(value, (_k, v) => {
    if (typeof v === 'bigint') {
      found = true;
      return BIG + v.toString();
    }
    return v;
  });
  return found ? s.replace(/"\\u0000big:(-?\d+)"/g, '$1') : s;
}

// ---- zstd (for base64+zstd) ----

/**
 * zstdFrame wraps bytes in a valid Zstandard frame made of raw (stored) blocks. It is what
 * "base64+zstd" asks for, without compressing: any zstd decoder reads it.
 */
export function zstdFrame(data) {
  const parts = [Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd)];
  // Frame header: Single_Segment_Flag set, Frame_Content_Size 8 bytes (FCS flag 3), no checksum.
  const fcs = new Uint8Array(8);
  new DataView(fcs.buffer).setBigUint64(0, BigInt(data.length), true);
  parts.push(Uint8Array.of(0xe0), fcs);
  const max = 128 * 1024;
  let o = 0;
  do {
    const n = Math.min(max, data.length - o);
    const last = o + n >= data.length ? 1 : 0;
    const h = (n << 3) | (0 << 1) | last; // Block_Type 0 = Raw
    parts.push(Uint8Array.of(h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff), data.subarray(o, o + n));
    o += n;
  } while (o < data.length);
  return concat(...parts);
}
