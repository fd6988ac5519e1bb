#!/usr/bin/env node
// send.mjs: signs the Solana transaction(s) of a partner API build with @solana/web3.js, sends
// them through your RPC and waits for each to be confirmed, the way web3.js does it: over the
// RPC's PubSub WebSocket (the RPC port + 1), until the blockhash's last valid block height.
//
//   curl ... /v1/build/transfer | SOLANA_SECRET_KEY=... node send.mjs --rpc-url http://127.0.0.1:8899
//
// stdin: the build (the JSON answer of POST /v1/build/transfer on chain solana). SOLANA_SECRET_KEY:
// the user's 64-byte secret key, base58 or solana-keygen's JSON array; never printed. Each
// transaction is signed exactly as built (blockhash and any other signatures kept), sent with
// preflight, and confirmed at --commitment (confirmed) before the next; the program gives up
// after --timeout seconds (90). It prints each signature; exit 0 when all are confirmed without
// error, 1 otherwise, 2 on bad usage.

import { parseArgs } from 'node:util';
import { Connection, Keypair, VersionedTransaction } from '@solana/web3.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58 decodes a base58 string (Bitcoin's alphabet, as Solana uses it). */
function base58(s) {
  let n = 0n;
  for (const c of s) {
    const d = ALPHABET.indexOf(c);
    if (d < 0) throw new Error('not base58');
    n = n * 58n + BigInt(d);
  }
  const bytes = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  for (const c of s) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** secretKey reads SOLANA_SECRET_KEY: base58 or a JSON array of 64 bytes. */
function secretKey() {
  const v = (process.env.SOLANA_SECRET_KEY ?? '').trim();
  if (!v) throw new Error('set SOLANA_SECRET_KEY to the user\'s secret key (base58, or solana-keygen\'s JSON array)');
  const bytes = v.startsWith('[') ? Uint8Array.from(JSON.parse(v)) : base58(v);
  if (bytes.length !== 64) throw new Error('SOLANA_SECRET_KEY is not a 64-byte Solana secret key');
  return Keypair.fromSecretKey(bytes);
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      'rpc-url': { type: 'string', default: 'http://127.0.0.1:8899' },
      'ws-url': { type: 'string' }, // default: web3.js's, the RPC URL's port + 1
      commitment: { type: 'string', default: 'confirmed' },
      timeout: { type: 'string', default: '90' },
    },
  });
  if (!['processed', 'confirmed', 'finalized'].includes(args.commitment) || !(Number(args.timeout) > 0)) {
    console.error('usage: node send.mjs [--rpc-url URL] [--ws-url URL] [--commitment processed|confirmed|finalized] [--timeout SECONDS] < build.json');
    return 2;
  }
  let build;
  let signer;
  try {
    build = JSON.parse(await readStdin());
    signer = secretKey();
  } catch (e) {
    console.error(`input: ${e.message}`);
    return 2;
  }
  const lastValidBlockHeight = build?.metadata?.lastValidBlockHeight;
  const txs = build?.transactions ?? [];
  if (!txs.length || txs.some((t) => t.encoding !== 'base64' || typeof t.payload !== 'string') || !Number.isInteger(lastValidBlockHeight)) {
    console.error('input: want a Solana build: transactions with base64 payloads and metadata.lastValidBlockHeight');
    return 2;
  }
  const connection = new Connection(args['rpc-url'], { commitment: args.commitment, wsEndpoint: args['ws-url'] });
  const deadline = AbortSignal.timeout(Number(args.timeout) * 1000);
  for (const [i, entry] of txs.entries()) {
    const tx = VersionedTransaction.deserialize(Buffer.from(entry.payload, 'base64'));
    const payer = tx.message.staticAccountKeys[0];
    if (!payer.equals(signer.publicKey)) {
      console.error(`transaction ${entry.id}: its fee payer is ${payer.toBase58()}, not this key's ${signer.publicKey.toBase58()}; not signed`);
      return 1;
    }
    tx.sign([signer]); // this key's signature slot only: the blockhash and other signatures stay as built
    const began = Date.now();
    const signature = await connection.sendRawTransaction(tx.serialize(), { preflightCommitment: args.commitment });
    console.log(`sent ${entry.id} (${i + 1}/${txs.length}): ${signature}`);
    const { context, value } = await connection.confirmTransaction(
      { signature, blockhash: tx.message.recentBlockhash, lastValidBlockHeight, abortSignal: deadline },
      args.commitment,
    );
    if (value.err) {
      console.error(`transaction ${signature} failed: ${JSON.stringify(value.err)}`);
      return 1;
    }
    console.log(`${args.commitment} ${signature} at slot ${context.slot} in ${Date.now() - began} ms`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e?.message ?? e);
    process.exit(1);
  },
);
