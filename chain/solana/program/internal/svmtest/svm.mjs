#!/usr/bin/env node
// A LiteSVM for tests of our programs, driven over stdin/stdout by svmtest.SVM (Go): one JSON
// request a line, one JSON answer a line. LiteSVM comes from the local validator's packages
// (chain/solana/validator/node_modules). Signature verification, the blockhash check and the
// transaction history are off, so unsigned transactions run exactly as built, any number of times.
//
// Requests ({"op": ...}):
//   program  {id, so}                       deploy an SBPF program (base64 ELF) at id (base58)
//   account  {address, lamports, owner, data, executable}   write an account (data base64)
//   get      {address}                      read an account: {account: {...} | null}
//   clock    {slot, epoch, unix}            set the Clock sysvar
//   tx       {wire}                         execute a transaction (base64): {ok, err, logs, units}
//   rent     {size}                         the rent-exempt minimum for size bytes: {lamports}
// Every answer carries "error" when the request itself failed.

import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bs58, unbs58, stringify } from '../../../validator/lib/codec.mjs';
import { txError } from '../../../validator/lib/errors.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../validator/package.json'));
const { LiteSVM, FailedTransactionMetadata } = require('litesvm');
const { Account, Clock } = require('litesvm/dist/internal.js');

const svm = new LiteSVM().withNativeMints();
const inner = svm.inner;
inner.setSigverify(false);
inner.setBlockhashCheck(false);
inner.setTransactionHistory(0n);

const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
const unb64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));

function handle(req) {
  switch (req.op) {
    case 'program':
      inner.addProgram(unbs58(req.id), unb64(req.so));
      return {};
    case 'account':
      inner.setAccount(unbs58(req.address), new Account(BigInt(req.lamports), unb64(req.data ?? ''), unbs58(req.owner), !!req.executable, 18446744073709551615n));
      return {};
    case 'get': {
      const a = inner.getAccount(unbs58(req.address));
      if (!a || a.lamports() === 0n) return { account: null };
      return { account: { lamports: a.lamports().toString(), owner: bs58(a.owner()), data: b64(a.data()), executable: a.executable() } };
    }
    case 'clock': {
      inner.setClock(new Clock(BigInt(req.slot), BigInt(req.unix), BigInt(req.epoch), BigInt(req.epoch) + 1n, BigInt(req.unix)));
      return {};
    }
    case 'rent':
      return { lamports: inner.minimumBalanceForRentExemption(BigInt(req.size)).toString() };
    case 'tx': {
      const res = inner.sendVersionedTransaction(unb64(req.wire));
      const failed = res instanceof FailedTransactionMetadata;
      const meta = failed ? res.meta() : res;
      return { ok: !failed, err: failed ? txError(res.err()).json : null, logs: meta.logs(), units: Number(meta.computeUnitsConsumed()) };
    }
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  let out;
  try {
    out = handle(JSON.parse(line));
  } catch (e) {
    out = { error: String(e?.stack ?? e) };
  }
  process.stdout.write(stringify(out) + '\n');
}
