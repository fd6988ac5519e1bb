#!/usr/bin/env node
// gen.mjs writes what @raydium-io/raydium-sdk-v2 derives, builds and decodes, for venue/raydium's
// tests to hold our PDAs, encoders and layouts to. gen.sh runs it with the SDK installed in a
// temporary directory (SDK_DIR, its node_modules): nothing of the SDK is committed.
//
//   ../sdk_instructions.json  the scenario's keys, the PDAs and associated token accounts as the
//                             SDK derives them, and every instruction of the scenario as the
//                             SDK's make*Instruction builds it: program id, account metas, data.
//   ../sdk_layouts.json       account data (the accounts of ../accounts.json, read from the local
//                             validator by `go test -run TestExecute -write-accounts`, and synthetic accounts with a
//                             distinct value in every field) and what the SDK's
//                             CpmmConfigInfoLayout and CpmmPoolInfoLayout decode from it (or the
//                             error they throw).
//
// The output is deterministic. Wallets (the creator, the trader, pool B's keypair) are ed25519
// keypairs whose seed is sha256("raydium venue test/" + label), so they are on the curve as a
// wallet is (the SDK's associated token address refuses an owner off the curve); mints are
// sha256 of their label; synthetic account data comes from a fixed xorshift seed.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.env.OUT_DIR ?? path.join(here, '..');
const accountsFile = process.env.ACCOUNTS ?? path.join(here, '..', 'accounts.json');
const sdkDir = process.env.SDK_DIR;
if (!sdkDir) throw new Error('SDK_DIR (the temporary node_modules) is not set: run gen.sh');
const require = createRequire(path.join(sdkDir, 'node_modules', 'package.json'));
const sdkRequire = createRequire(require.resolve('@raydium-io/raydium-sdk-v2/package.json'));

const sdkPkg = require('@raydium-io/raydium-sdk-v2/package.json');
const ins = require('@raydium-io/raydium-sdk-v2/lib/raydium/cpmm/instruction.js');
const layout = require('@raydium-io/raydium-sdk-v2/lib/raydium/cpmm/layout.js');
const pda = require('@raydium-io/raydium-sdk-v2/lib/raydium/cpmm/pda.js');
const programIds = require('@raydium-io/raydium-sdk-v2/lib/common/programId.js');
const commonPda = require('@raydium-io/raydium-sdk-v2/lib/common/pda.js');
// the SDK's own dependencies, as it resolves them
const { Keypair, PublicKey } = sdkRequire('@solana/web3.js');
const { TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, getAssociatedTokenAddressSync } = sdkRequire('@solana/spl-token');
const BN = sdkRequire('bn.js');
// versionOf is the installed version of a dependency of the SDK (some export no package.json: walk
// up from its entry point)
function versionOf(name) {
  for (let dir = path.dirname(sdkRequire.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const f = path.join(dir, 'package.json');
    if (existsSync(f)) {
      const p = JSON.parse(readFileSync(f, 'utf8'));
      if (p.name === name) return p.version;
    }
  }
  throw new Error(`no package.json of ${name}`);
}

const U64_MAX = new BN('18446744073709551615');
const sha = (label) => createHash('sha256').update('raydium venue test/' + label).digest();
const wallet = (label) => Keypair.fromSeed(sha(label)).publicKey;
const mintKey = (label) => new PublicKey(sha(label));
const b58 = (k) => k.toBase58();
const less = (a, b) => Buffer.compare(a.toBuffer(), b.toBuffer()) < 0;

// ---- the scenario: one config, three pools, a creator and a trader ----

const programId = programIds.CREATE_CPMM_POOL_PROGRAM;
const creator = wallet('creator');
const trader = wallet('trader');
const configIndex = 0;
const configId = pda.getCpmmPdaAmmConfigId(programId, configIndex).publicKey;
const authority = pda.getPdaPoolAuthority(programId);

// mintPair picks the first labels "<prefix>/<n>" whose mints sort with the first one as token 0 (when
// first0) or token 1, so that the pools cover Token-2022 on either side.
function mintPair(prefix, first0) {
  for (let n = 0; ; n++) {
    const a = mintKey(`mint/${prefix}-a/${n}`);
    const b = mintKey(`mint/${prefix}-b/${n}`);
    if (less(a, b) === first0) return [a, b];
  }
}

// pool A: two SPL Token mints, at the pool PDA. Pool B: a Token-2022 mint with a transfer fee as
// token 0 and an SPL Token mint, at a keypair's address (which signs initialize). Pool C: an SPL
// Token mint and a Token-2022 mint as token 1, at the PDA.
const fee = { basisPoints: 100, maximumFee: '10000000' };
const [aA, aB] = mintPair('A', true);
const [bA, bB] = mintPair('B', true);
const [cA, cB] = mintPair('C', true);
const poolDefs = [
  { name: 'A', mints: [[aA, TOKEN_PROGRAM_ID, 6], [aB, TOKEN_PROGRAM_ID, 9]] },
  { name: 'B', mints: [[bA, TOKEN_2022_PROGRAM_ID, 6, fee], [bB, TOKEN_PROGRAM_ID, 9]], poolKeypair: 'pool/B keypair' },
  { name: 'C', mints: [[cA, TOKEN_PROGRAM_ID, 2], [cB, TOKEN_2022_PROGRAM_ID, 5]] },
];

const ata = (owner, mint, prog) => getAssociatedTokenAddressSync(mint, owner, false, prog);
const pools = poolDefs.map((d) => {
  const [[m0, prog0, dec0, fee0], [m1, prog1, dec1, fee1]] = d.mints; // already sorted
  const poolId = d.poolKeypair ? wallet(d.poolKeypair) : undefined;
  const k = pda.getCreatePoolKeys({ poolId, programId, configId, mintA: m0, mintB: m1 });
  const poolPda = pda.getCpmmPdaPoolId(programId, configId, m0, m1);
  const withNonce = (r) => ({ address: b58(r.publicKey), nonce: r.nonce });
  return {
    name: d.name, m0, m1, prog0, prog1, k,
    json: {
      name: d.name,
      mint0: { address: b58(m0), program: b58(prog0), decimals: dec0, transferFee: fee0 ?? null },
      mint1: { address: b58(m1), program: b58(prog1), decimals: dec1, transferFee: fee1 ?? null },
      poolKeypairLabel: d.poolKeypair ?? null,
      poolKeypair: poolId ? b58(poolId) : null,
      keys: {
        pool: b58(k.poolId), poolPda: b58(poolPda.publicKey), authority: b58(k.authority),
        lpMint: b58(k.lpMint), vault0: b58(k.vaultA), vault1: b58(k.vaultB), observation: b58(k.observationId),
      },
      // each PDA by the SDK's own function, with its bump
      pdas: {
        poolPda: withNonce(poolPda),
        lpMint: withNonce(pda.getPdaLpMint(programId, k.poolId)),
        vault0: withNonce(pda.getPdaVault(programId, k.poolId, m0)),
        vault1: withNonce(pda.getPdaVault(programId, k.poolId, m1)),
        observation: withNonce(pda.getPdaObservationId(programId, k.poolId)),
      },
      accounts: {
        creator0: b58(ata(creator, m0, prog0)), creator1: b58(ata(creator, m1, prog1)), creatorLp: b58(ata(creator, k.lpMint, TOKEN_PROGRAM_ID)),
        trader0: b58(ata(trader, m0, prog0)), trader1: b58(ata(trader, m1, prog1)),
        // Raydium's own ATA helper, for the LP account initialize creates
        creatorLpByRaydium: b58(commonPda.getATAAddress(creator, k.lpMint, TOKEN_PROGRAM_ID).publicKey),
      },
    },
  };
});

// ---- the instructions, each as the SDK's make*Instruction builds it ----

const ixJSON = (ix) => ({
  programId: b58(ix.programId),
  keys: ix.keys.map((m) => ({ pubkey: b58(m.pubkey), isSigner: m.isSigner, isWritable: m.isWritable })),
  data: Buffer.from(ix.data).toString('hex'),
});
const args = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.toString()]));

const instructions = [];
for (const p of pools) {
  const a = p.json.accounts;
  const pk = (s) => new PublicKey(s);
  const amounts = { A: ['2000000000000', '500000000000000', '0'], B: ['5000000000000', '5000000000000', '1700000000'], C: ['1', U64_MAX.toString(), U64_MAX.toString()] }[p.name];
  const init = { amount0: new BN(amounts[0]), amount1: new BN(amounts[1]), openTime: new BN(amounts[2]) };
  instructions.push({
    pool: p.name, op: 'initialize', args: args(init),
    expect: ixJSON(ins.makeCreateCpmmPoolInInstruction(programId, creator, configId, p.k.authority, p.k.poolId, p.m0, p.m1, p.k.lpMint,
      pk(a.creator0), pk(a.creator1), pk(a.creatorLp), p.k.vaultA, p.k.vaultB, programIds.CREATE_CPMM_POOL_FEE_ACC, p.prog0, p.prog1,
      p.k.observationId, init.amount0, init.amount1, init.openTime)),
  });
  const lp = [
    { lp: new BN('1000000000'), x: U64_MAX, y: U64_MAX },
    { lp: new BN('1'), x: new BN(0), y: new BN('72057594037927936') }, // 2^56: one byte set at the top
  ];
  for (const d of lp) {
    instructions.push({
      pool: p.name, op: 'deposit', args: args({ lp: d.lp, maximum0: d.x, maximum1: d.y }),
      expect: ixJSON(ins.makeDepositCpmmInInstruction(programId, creator, p.k.authority, p.k.poolId, pk(a.creatorLp), pk(a.creator0),
        pk(a.creator1), p.k.vaultA, p.k.vaultB, p.m0, p.m1, p.k.lpMint, d.lp, d.x, d.y)),
    });
    instructions.push({
      pool: p.name, op: 'withdraw', args: args({ lp: d.lp, minimum0: d.y, minimum1: d.x }),
      expect: ixJSON(ins.makeWithdrawCpmmInInstruction(programId, creator, p.k.authority, p.k.poolId, pk(a.creatorLp), pk(a.creator0),
        pk(a.creator1), p.k.vaultA, p.k.vaultB, p.m0, p.m1, p.k.lpMint, d.lp, d.y, d.x)),
    });
  }
  const swaps = [
    { op: 'swap_base_input', zeroForOne: true, a: new BN('1000000000'), b: new BN(1), make: ins.makeSwapCpmmBaseInInstruction },
    { op: 'swap_base_output', zeroForOne: false, a: U64_MAX, b: new BN('777777'), make: ins.makeSwapCpmmBaseOutInstruction },
    { op: 'swap_base_input', zeroForOne: false, a: new BN('123456789'), b: new BN(0), make: ins.makeSwapCpmmBaseInInstruction },
    { op: 'swap_base_output', zeroForOne: true, a: new BN('9876543210'), b: new BN('100000000'), make: ins.makeSwapCpmmBaseOutInstruction },
  ];
  for (const s of swaps) {
    const [inMint, outMint, inVault, outVault, inProg, outProg, inAcc, outAcc] = s.zeroForOne
      ? [p.m0, p.m1, p.k.vaultA, p.k.vaultB, p.prog0, p.prog1, a.trader0, a.trader1]
      : [p.m1, p.m0, p.k.vaultB, p.k.vaultA, p.prog1, p.prog0, a.trader1, a.trader0];
    const names = s.op === 'swap_base_input' ? ['amountIn', 'minimumAmountOut'] : ['maxAmountIn', 'amountOut'];
    instructions.push({
      pool: p.name, op: s.op, zeroForOne: s.zeroForOne, args: args({ [names[0]]: s.a, [names[1]]: s.b }),
      expect: ixJSON(s.make(programId, trader, p.k.authority, configId, p.k.poolId, pk(inAcc), pk(outAcc), inVault, outVault, inProg, outProg,
        inMint, outMint, p.k.observationId, s.a, s.b)),
    });
  }
}

const header = {
  about: 'What @raydium-io/raydium-sdk-v2 derives and builds for venue/raydium\'s test scenario. Generated by testdata/sdk/gen.sh; see testdata/sdk/README.md.',
  packages: {
    '@raydium-io/raydium-sdk-v2': sdkPkg.version,
    '@solana/web3.js': versionOf('@solana/web3.js'),
    '@solana/spl-token': versionOf('@solana/spl-token'),
    'bn.js': versionOf('bn.js'),
  },
};

const configIndexes = [0, 1, 2, 3, 4, 9, 10, 255, 256, 257, 4660, 65535];
writeFileSync(path.join(out, 'sdk_instructions.json'), JSON.stringify({
  ...header,
  programId: b58(programId),
  sdkConstants: {
    CREATE_CPMM_POOL_PROGRAM: b58(programIds.CREATE_CPMM_POOL_PROGRAM),
    CREATE_CPMM_POOL_AUTH: b58(programIds.CREATE_CPMM_POOL_AUTH),
    CREATE_CPMM_POOL_FEE_ACC: b58(programIds.CREATE_CPMM_POOL_FEE_ACC),
    TOKEN_PROGRAM_ID: b58(TOKEN_PROGRAM_ID),
    TOKEN_2022_PROGRAM_ID: b58(TOKEN_2022_PROGRAM_ID),
  },
  wallets: { creator: b58(creator), trader: b58(trader) },
  config: { index: configIndex, address: b58(configId), authority: b58(authority.publicKey), authorityBump: authority.nonce },
  configsByIndex: configIndexes.map((i) => {
    const r = pda.getCpmmPdaAmmConfigId(programId, i);
    return { index: i, address: b58(r.publicKey), nonce: r.nonce };
  }),
  pools: pools.map((p) => p.json),
  instructions,
}, null, 1) + '\n');

// ---- layouts ----

function decoded(obj) {
  const o = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v instanceof PublicKey) o[k] = b58(v);
    else if (BN.isBN(v)) o[k] = v.toString();
    else if (typeof v === 'number' || typeof v === 'boolean') o[k] = v;
    else throw new Error(`decoded field ${k}: unexpected ${typeof v}`);
  }
  return o;
}

let seed = 0x9e3779b97f4a7c15n;
function rand8() {
  seed ^= (seed << 13n) & 0xffffffffffffffffn;
  seed ^= seed >> 7n;
  seed ^= (seed << 17n) & 0xffffffffffffffffn;
  return Number(seed & 0xffn);
}
const disc = (name) => createHash('sha256').update('account:' + name).digest().subarray(0, 8);
function synthetic(name, size, fix) {
  const b = Buffer.alloc(size);
  disc(name).copy(b);
  for (let i = 8; i < size; i++) b[i] = rand8();
  fix(b);
  return b;
}

const layouts = { AmmConfig: layout.CpmmConfigInfoLayout, PoolState: layout.CpmmPoolInfoLayout };
const accounts = [];
if (existsSync(accountsFile)) {
  const live = JSON.parse(readFileSync(accountsFile, 'utf8'));
  for (const a of live.accounts) {
    if (layouts[a.layout]) accounts.push({ name: a.name, address: a.address, layout: a.layout, data: Buffer.from(a.data, 'base64') });
  }
} else {
  console.error(`gen.mjs: no ${accountsFile}: run go test ./venue/raydium -run TestExecute -write-accounts first (see README.md)`);
}
// AmmConfig's disable_create_pool at 9 and PoolState's enable_creator_fee at 390 are bools: 0 or
// 1 in the synthetic accounts (the SDK's bool throws otherwise), and 2 in the last of each
const AMM_BOOL = 9;
const POOL_BOOL = 390;
for (let i = 0; i < 4; i++) {
  accounts.push({ name: `synthetic AmmConfig ${i}`, layout: 'AmmConfig', data: synthetic('AmmConfig', 236, (b) => { b[AMM_BOOL] = i === 3 ? 2 : i % 2; }) });
  accounts.push({ name: `synthetic PoolState ${i}`, layout: 'PoolState', data: synthetic('PoolState', 637, (b) => { b[POOL_BOOL] = i === 3 ? 2 : (i + 1) % 2; }) });
}
writeFileSync(path.join(out, 'sdk_layouts.json'), JSON.stringify({
  ...header,
  about: 'Account data and what @raydium-io/raydium-sdk-v2\'s CpmmConfigInfoLayout / CpmmPoolInfoLayout decode from it (sdk) or throw (sdkError). Generated by testdata/sdk/gen.sh; see testdata/sdk/README.md.',
  accounts: accounts.map((a) => {
    const o = { name: a.name, address: a.address, layout: a.layout, data: a.data.toString('base64') };
    try {
      o.sdk = decoded(layouts[a.layout].decode(a.data));
    } catch (e) {
      o.sdkError = String(e.message ?? e);
    }
    return o;
  }),
}, null, 1) + '\n');
console.error(`gen.mjs: ${instructions.length} instructions, ${accounts.length} accounts`);
