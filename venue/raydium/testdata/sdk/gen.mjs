#!/usr/bin/env node
// gen.mjs writes what @raydium-io/raydium-sdk-v2 builds and decodes, for venue/raydium's tests to
// hold our encoders and decoders to. gen.sh runs it with the SDK installed in a temporary
// directory (SDK_DIR, its node_modules): nothing of the SDK is committed.
//
//   ../sdk_instructions.json  the test scenario's keys (from labels), the PDAs as the SDK derives
//                             them, and every instruction of the scenario as the SDK's
//                             make*Instruction builds it: program id, account metas, data.
//   ../sdk_layouts.json       account data (the accounts the program wrote in LiteSVM, from
//                             ../accounts.json, and synthetic accounts with a distinct value in
//                             every field) and what the SDK's CpmmConfigInfoLayout and
//                             CpmmPoolInfoLayout decode from it.
//
// The output is deterministic: keys are sha256("raydium venue test/" + label), synthetic data is
// from a fixed xorshift seed.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.env.OUT_DIR ?? path.join(here, '..');
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
const { PublicKey } = sdkRequire('@solana/web3.js');
const { TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID, getAssociatedTokenAddressSync } = sdkRequire('@solana/spl-token');
const BN = sdkRequire('bn.js');
const versionOf = (name) => JSON.parse(readFileSync(sdkRequire.resolve(`${name}/package.json`), 'utf8')).version;

const U64_MAX = new BN('18446744073709551615');
const key = (label) => new PublicKey(createHash('sha256').update('raydium venue test/' + label).digest());
const b58 = (k) => k.toBase58();
const sorted = (a, b) => (Buffer.compare(a.toBuffer(), b.toBuffer()) < 0 ? [a, b] : [b, a]);

// ---- the scenario: one config, two pools, a creator and a trader ----

const programId = programIds.CREATE_CPMM_POOL_PROGRAM;
const creator = key('creator');
const trader = key('trader');
const configIndex = 0;
const configId = pda.getCpmmPdaAmmConfigId(programId, configIndex).publicKey;
const authority = pda.getPdaPoolAuthority(programId).publicKey;

// pool A: two SPL Token mints, at the pool PDA. Pool B: a Token-2022 mint with a transfer fee and
// an SPL Token mint, at a keypair's address (which signs initialize).
const poolDefs = [
  { name: 'A', mints: [[key('mint/A-x'), TOKEN_PROGRAM_ID, 6], [key('mint/A-y'), TOKEN_PROGRAM_ID, 9]], poolId: undefined },
  {
    name: 'B',
    mints: [[key('mint/B-fee'), TOKEN_2022_PROGRAM_ID, 6, { basisPoints: 100, maximumFee: '10000000' }], [key('mint/B-spl'), TOKEN_PROGRAM_ID, 9]],
    poolId: key('pool/B keypair'),
  },
];

const pools = poolDefs.map((d) => {
  const [m0, m1] = sorted(d.mints[0][0], d.mints[1][0]);
  const info = (m) => d.mints.find((x) => x[0].equals(m));
  const [, prog0, dec0, fee0] = info(m0);
  const [, prog1, dec1, fee1] = info(m1);
  const k = pda.getCreatePoolKeys({ poolId: d.poolId, programId, configId, mintA: m0, mintB: m1 });
  const ata = (owner, mint, prog) => getAssociatedTokenAddressSync(mint, owner, false, prog);
  return {
    name: d.name, m0, m1, prog0, prog1, k,
    json: {
      name: d.name,
      mint0: { address: b58(m0), program: b58(prog0), decimals: dec0, transferFee: fee0 ?? null },
      mint1: { address: b58(m1), program: b58(prog1), decimals: dec1, transferFee: fee1 ?? null },
      poolKeypair: d.poolId ? b58(d.poolId) : null,
      keys: {
        pool: b58(k.poolId), poolPda: b58(pda.getCpmmPdaPoolId(programId, configId, m0, m1).publicKey), authority: b58(k.authority),
        lpMint: b58(k.lpMint), vault0: b58(k.vaultA), vault1: b58(k.vaultB), observation: b58(k.observationId),
      },
      accounts: {
        creator0: b58(ata(creator, m0, prog0)), creator1: b58(ata(creator, m1, prog1)), creatorLp: b58(ata(creator, k.lpMint, TOKEN_PROGRAM_ID)),
        trader0: b58(ata(trader, m0, prog0)), trader1: b58(ata(trader, m1, prog1)),
        creatorLpByRaydium: b58(commonPda.getATAAddress(creator, k.lpMint, TOKEN_PROGRAM_ID).publicKey),
      },
    },
  };
});

// ---- the instructions, in the order the LiteSVM test runs them ----

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
  const amounts = { A: ['2000000000000', '500000000000000'], B: ['5000000000000', '5000000000000'] }[p.name];
  const init = { amount0: new BN(amounts[0]), amount1: new BN(amounts[1]), openTime: new BN(0) };
  instructions.push({
    pool: p.name, op: 'initialize', args: args(init),
    expect: ixJSON(ins.makeCreateCpmmPoolInInstruction(programId, creator, configId, p.k.authority, p.k.poolId, p.m0, p.m1, p.k.lpMint,
      pk(a.creator0), pk(a.creator1), pk(a.creatorLp), p.k.vaultA, p.k.vaultB, programIds.CREATE_CPMM_POOL_FEE_ACC, p.prog0, p.prog1,
      p.k.observationId, init.amount0, init.amount1, init.openTime)),
  });
  const dep = { lp: new BN('1000000000'), maximum0: U64_MAX, maximum1: U64_MAX };
  instructions.push({
    pool: p.name, op: 'deposit', args: args(dep),
    expect: ixJSON(ins.makeDepositCpmmInInstruction(programId, creator, p.k.authority, p.k.poolId, pk(a.creatorLp), pk(a.creator0),
      pk(a.creator1), p.k.vaultA, p.k.vaultB, p.m0, p.m1, p.k.lpMint, dep.lp, dep.maximum0, dep.maximum1)),
  });
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
  const wd = { lp: new BN('400000000'), minimum0: new BN(1), minimum1: new BN(1) };
  instructions.push({
    pool: p.name, op: 'withdraw', args: args(wd),
    expect: ixJSON(ins.makeWithdrawCpmmInInstruction(programId, creator, p.k.authority, p.k.poolId, pk(a.creatorLp), pk(a.creator0),
      pk(a.creator1), p.k.vaultA, p.k.vaultB, p.m0, p.m1, p.k.lpMint, wd.lp, wd.minimum0, wd.minimum1)),
  });
}

const header = {
  about: 'What @raydium-io/raydium-sdk-v2 builds for venue/raydium\'s test scenario. Generated by testdata/sdk/gen.sh; see testdata/sdk/README.md.',
  packages: {
    '@raydium-io/raydium-sdk-v2': sdkPkg.version,
    '@solana/web3.js': versionOf('@solana/web3.js'),
    '@solana/spl-token': versionOf('@solana/spl-token'),
    'bn.js': versionOf('bn.js'),
  },
};

writeFileSync(path.join(out, 'sdk_instructions.json'), JSON.stringify({
  ...header,
  programId: b58(programId),
  sdkConstants: {
    CREATE_CPMM_POOL_PROGRAM: b58(programIds.CREATE_CPMM_POOL_PROGRAM),
    CREATE_CPMM_POOL_AUTH: b58(programIds.CREATE_CPMM_POOL_AUTH),
    CREATE_CPMM_POOL_FEE_ACC: b58(programIds.CREATE_CPMM_POOL_FEE_ACC),
  },
  creator: b58(creator),
  trader: b58(trader),
  config: { index: configIndex, address: b58(configId), authority: b58(authority) },
  configsByIndex: Object.fromEntries([0, 1, 2, 3, 255, 256, 65535].map((i) => [i, b58(pda.getCpmmPdaAmmConfigId(programId, i).publicKey)])),
  pools: pools.map((p) => p.json),
  instructions,
}, null, 1) + '\n');

// ---- layouts ----

function decoded(obj) {
  const o = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v instanceof PublicKey) o[k] = b58(v);
    else if (BN.isBN(v)) o[k] = v.toString();
    else if (Array.isArray(v)) o[k] = v.map((x) => (BN.isBN(x) ? x.toString() : x));
    else if (Buffer.isBuffer(v) || v instanceof Uint8Array) o[k] = Buffer.from(v).toString('hex');
    else o[k] = v;
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
const live = path.join(out, 'accounts.json');
if (existsSync(live)) {
  for (const [name, a] of Object.entries(JSON.parse(readFileSync(live, 'utf8')).accounts)) {
    if (layouts[a.layout]) accounts.push({ name, layout: a.layout, data: Buffer.from(a.data, 'base64') });
  }
} else {
  console.error('gen.mjs: no accounts.json yet: run the LiteSVM test with -update first (see README.md)');
}
for (let i = 0; i < 3; i++) {
  // Borsh bools are 0 or 1 (the SDK's bool throws otherwise); so is the pool's enable_creator_fee
  accounts.push({ name: `synthetic AmmConfig ${i}`, layout: 'AmmConfig', data: synthetic('AmmConfig', 236, (b) => { b[9] = i % 2; }) });
  accounts.push({ name: `synthetic PoolState ${i}`, layout: 'PoolState', data: synthetic('PoolState', 637, (b) => { b[390] = (i + 1) % 2; }) });
}
writeFileSync(path.join(out, 'sdk_layouts.json'), JSON.stringify({
  ...header,
  about: 'Account data and what @raydium-io/raydium-sdk-v2\'s CpmmConfigInfoLayout / CpmmPoolInfoLayout decode from it. Generated by testdata/sdk/gen.sh; see testdata/sdk/README.md.',
  accounts: accounts.map((a) => ({ name: a.name, layout: a.layout, data: a.data.toString('base64'), sdk: decoded(layouts[a.layout].decode(a.data)) })),
}, null, 1) + '\n');
console.error(`gen.mjs: ${instructions.length} instructions, ${accounts.length} accounts`);
