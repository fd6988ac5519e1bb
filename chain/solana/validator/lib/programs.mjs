// The programs the validator deploys besides LiteSVM's built-ins: our constant-product AMM, whose
// instruction interface and account layouts follow Raydium CPMM, at Raydium CPMM's mainnet program
// id. It is ours (C, built by `make program` into chain/solana/program/raydium_cpmm.so),
// compatible in interface, not Raydium's binary.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unbs58 } from './codec.mjs';

export const CPMM_PROGRAM = 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C';
const CPMM_SO = fileURLToPath(new URL('../../program/raydium_cpmm.so', import.meta.url));

/** deployPrograms deploys our programs into the chain's SVM and returns what it deployed: [{name, programId, path}]. */
export function deployPrograms(chain) {
  chain.inner.addProgram(unbs58(CPMM_PROGRAM), new Uint8Array(readFileSync(CPMM_SO)));
  return [{ name: 'raydium-cpmm (ours, Raydium CPMM-compatible)', programId: CPMM_PROGRAM, path: 'chain/solana/program/raydium_cpmm.so' }];
}
