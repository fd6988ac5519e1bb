#!/usr/bin/env node
// Runs unsigned transactions exactly as built, straight in LiteSVM: a fresh SVM seeded as the
// validator seeds it (same --seed, so the same accounts, balances and CPMM pools as a validator that
// has run nothing else), one block on, with signature verification and the blockhash check off.
//
//   node run-unsigned.mjs [--seed partnerd-localnet] < transactions
//
// Reads one base64 transaction per line on stdin, executes them in order and prints one JSON line
// per transaction: {"landed": bool, "err": <Solana's TransactionError or null>, "logs": [...],
// "accounts": [<base58 keys>], "postBalances": [<lamports>], "postTokenBalances": [...]} in the
// shapes getTransaction's meta uses. A transaction that charged nothing (it could not even pay its
// fee) has "landed": false.

import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Chain } from './lib/chain.mjs';
import { bs58, parseTransaction, sha256, stringify, unb64 } from './lib/codec.mjs';
import { deployPrograms } from './lib/programs.mjs';
import { seed } from './lib/seed.mjs';

const { values: args } = parseArgs({ options: { seed: { type: 'string', default: 'partnerd-localnet' } } });
const chain = new Chain({ slotMs: 400, finalizeDepth: 1, genesisHash: bs58(sha256(Buffer.from(`partnerd-localnet genesis/${args.seed}`))) });
deployPrograms(chain); // our Raydium-CPMM-compatible program, as the validator deploys it
seed(chain, args.seed);
chain.produceBlock(); // block 1, as on the validator: the clock moves past the pools' open time
chain.inner.setSigverify(false); // the blockhash check is off in every Chain: the validator keeps its own queue

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let out;
  try {
    const wire = unb64(line.trim());
    const tx = parseTransaction(wire);
    const rec = chain.land(wire, tx, chain.sanitize(tx));
    out = rec
      ? { landed: true, err: rec.err, logs: rec.logs, accounts: rec.keysB58, postBalances: rec.postBalances, postTokenBalances: rec.postTokenBalances }
      : { landed: false };
  } catch (e) {
    out = { landed: false, error: e.message };
  }
  process.stdout.write(stringify(out) + '\n');
}
