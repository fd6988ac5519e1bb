// Raydium CPMM as our program (chain/solana/program) serves it at CPMM's mainnet id: the fee tier
// configs (AmmConfig, laid out as CPMM and the program lay it out, with mainnet's figures), the
// addresses CPMM derives for a pool, the PoolState fields the seeding and the trader read, the
// instructions (initialize, deposit, swap_base_input, swap_base_output, in CPMM's account order)
// and CPMM's swap figures for quoting.

import { concat, pubkey, sha256 } from './codec.mjs';
import { CPMM_PROGRAM } from './programs.mjs';
import { ATA_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, findProgramAddress, le16, le64 } from './token.mjs';

/** Raydium's admin key (the only signer create_amm_config accepts) and CPMM's other fixed accounts. */
export const RAYDIUM_ADMIN = 'GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ';
/** CREATE_POOL_FEE_RECEIVER is the wrapped SOL account initialize pays the pool creation fee into. */
export const CREATE_POOL_FEE_RECEIVER = 'DNXgeM9EiiaAbaWvwjHj9fQQLAX5ZsfHyvmYUNRAdNC8';
const PROTOCOL_OWNER = 'ProCXqRcXJjoUd1RNoo28bSizAA6EEqt9wURZYPDc5u';
const FUND_OWNER = 'FUNDduJTA7XcckKHKfAoEnnhuSud2JUCUZv6opWEjrBU';
export const RENT_SYSVAR = 'SysvarRent111111111111111111111111111111111';

export const AMM_CONFIG_SIZE = 236;
export const POOL_STATE_SIZE = 637;
export const FEE_RATE_DENOMINATOR = 1_000_000n;
export const LOCKED_LP = 100n;
export const LP_DECIMALS = 9;

/**
 * AMM_CONFIGS are CPMM's standard fee tiers as mainnet has them at these indexes (so at the same
 * addresses): trade fee 0.25 %, 1 %, 2 %, 4 % (in millionths); 12 % of the trade fee to the
 * protocol and 4 % to the fund; a 0.15 SOL pool creation fee; a 0.05 % creator fee rate (charged
 * only by pools that enable it, which initialize does not); the protocol and fund owners Raydium
 * set there.
 */
export const AMM_CONFIGS = [0, 1, 2, 3].map((index) => ({
  index,
  tradeFeeRate: [2_500n, 10_000n, 20_000n, 40_000n][index],
  protocolFeeRate: 120_000n,
  fundFeeRate: 40_000n,
  createPoolFee: 150_000_000n,
  creatorFeeRate: 500n,
  protocolOwner: PROTOCOL_OWNER,
  fundOwner: FUND_OWNER,
}));

const disc = (name) => sha256(Buffer.from(name)).subarray(0, 8);
// pda is the program address of seeds (strings are their UTF-8 bytes) under CPMM's id, with its bump.
const pda = (...seeds) => findProgramAddress(seeds.map((s) => (typeof s === 'string' ? Buffer.from(s) : s)), CPMM_PROGRAM);

/** ammConfigAddress is the config's program address ["amm_config", index as big-endian u16] and its bump. */
export const ammConfigAddress = (index) => pda('amm_config', Uint8Array.of(index >> 8, index & 0xff));

/** AUTHORITY is the program address that owns every vault and mints every LP token. */
export const AUTHORITY = pda('vault_and_lp_mint_auth_seed')[0];

/** poolAddresses are what CPMM derives for a pool of mint0 < mint1 under a config. */
export function poolAddresses(ammConfig, mint0, mint1) {
  const [pool] = pda('pool', pubkey(ammConfig), pubkey(mint0), pubkey(mint1));
  const p = pubkey(pool);
  return {
    pool,
    lpMint: pda('pool_lp_mint', p)[0],
    vault0: pda('pool_vault', p, pubkey(mint0))[0],
    vault1: pda('pool_vault', p, pubkey(mint1))[0],
    observation: pda('observation', p)[0],
  };
}

/**
 * ammConfigData is an AmmConfig account's data as create_amm_config writes it (Borsh after
 * Anchor's discriminator): bump, disable_create_pool, index, trade, protocol and fund fee rates,
 * create_pool_fee, protocol_owner, fund_owner, creator_fee_rate, 15 u64 of padding.
 */
export function ammConfigData(cfg, bump) {
  const d = concat(
    disc('account:AmmConfig'),
    Uint8Array.of(bump, 0),
    le16(cfg.index),
    le64(cfg.tradeFeeRate),
    le64(cfg.protocolFeeRate),
    le64(cfg.fundFeeRate),
    le64(cfg.createPoolFee),
    pubkey(cfg.protocolOwner),
    pubkey(cfg.fundOwner),
    le64(cfg.creatorFeeRate),
  );
  const out = new Uint8Array(AMM_CONFIG_SIZE);
  out.set(d);
  return out;
}

const u64 = (d, o) => new DataView(d.buffer, d.byteOffset + o, 8).getBigUint64(0, true);

/** poolState reads the PoolState fields used here: the LP supply, the fees owed per side, open_time. */
export function poolState(data) {
  return {
    lpSupply: u64(data, 333),
    owed0: u64(data, 341) + u64(data, 357) + u64(data, 397), // protocol + fund + creator fees, token 0
    owed1: u64(data, 349) + u64(data, 365) + u64(data, 405),
    openTime: u64(data, 373),
  };
}

const meta = (key, isSigner, isWritable) => ({ pubkey: typeof key === 'string' ? pubkey(key) : key, isSigner, isWritable });
const ix = (keys, data) => ({ programId: pubkey(CPMM_PROGRAM), keys, data });

/**
 * cpmmIxs build the program's instructions, accounts in CPMM's order. p is a pool:
 * {address, ammConfig, lpMint, observation, token0, token1} with token{mint, program, vault}.
 */
export const cpmmIxs = {
  initialize: (creator, p, creator0, creator1, creatorLp, amount0, amount1) =>
    ix(
      [
        meta(creator, true, true), meta(p.ammConfig, false, false), meta(AUTHORITY, false, false), meta(p.address, false, true),
        meta(p.token0.mint, false, false), meta(p.token1.mint, false, false), meta(p.lpMint, false, true),
        meta(creator0, false, true), meta(creator1, false, true), meta(creatorLp, false, true),
        meta(p.token0.vault, false, true), meta(p.token1.vault, false, true), meta(CREATE_POOL_FEE_RECEIVER, false, true),
        meta(p.observation, false, true), meta(TOKEN_PROGRAM, false, false), meta(p.token0.program, false, false),
        meta(p.token1.program, false, false), meta(ATA_PROGRAM, false, false), meta(SYSTEM_PROGRAM, false, false), meta(RENT_SYSVAR, false, false),
      ],
      concat(disc('global:initialize'), le64(amount0), le64(amount1), le64(0n)),
    ),
  deposit: (owner, p, ownerLp, account0, account1, lpAmount, max0, max1) =>
    ix(
      [
        meta(owner, true, false), meta(AUTHORITY, false, false), meta(p.address, false, true), meta(ownerLp, false, true),
        meta(account0, false, true), meta(account1, false, true), meta(p.token0.vault, false, true), meta(p.token1.vault, false, true),
        meta(TOKEN_PROGRAM, false, false), meta(TOKEN_2022_PROGRAM, false, false), meta(p.token0.mint, false, false),
        meta(p.token1.mint, false, false), meta(p.lpMint, false, true),
      ],
      concat(disc('global:deposit'), le64(lpAmount), le64(max0), le64(max1)),
    ),
  /** swap: baseInput (amount in, minimum out) or not (maximum in, amount out); zeroForOne: token 0 in. */
  swap: (payer, p, zeroForOne, baseInput, inputAccount, outputAccount, a, b) => {
    const [i, o] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0];
    return ix(
      [
        meta(payer, true, false), meta(AUTHORITY, false, false), meta(p.ammConfig, false, false), meta(p.address, false, true),
        meta(inputAccount, false, true), meta(outputAccount, false, true), meta(i.vault, false, true), meta(o.vault, false, true),
        meta(i.program, false, false), meta(o.program, false, false), meta(i.mint, false, false), meta(o.mint, false, false),
        meta(p.observation, false, true),
      ],
      concat(disc(baseInput ? 'global:swap_base_input' : 'global:swap_base_output'), le64(a), le64(b)),
    );
  },
};

// ---- CPMM's figures (for quoting; the program computes its own) ----

const ceilDiv = (a, b) => (a + b - 1n) / b;

/** transferFee is Token-2022's fee on amount (fee: {bps, max} or null): ceil(amount*bps/10000), capped. */
export function transferFee(fee, amount) {
  if (!fee || amount === 0n) return 0n;
  const f = ceilDiv(amount * BigInt(fee.bps), 10_000n);
  return f < fee.max ? f : fee.max;
}

/** grossUp is the smallest amount whose transfer leaves at least net after the fee. */
export function grossUp(fee, net) {
  if (!fee) return net;
  let g = net + transferFee(fee, ceilDiv(net * 10_000n, 10_000n - BigInt(fee.bps)));
  while (g > net && g - transferFee(fee, g - 1n) >= net) g--;
  while (g - transferFee(fee, g) < net) g++;
  return g;
}

/**
 * quoteBaseInput is what swap_base_input pays out: amountIn arrives less its transfer fee, the
 * trade fee (rounded up) stays in the pool, the output (reserves x in, y out, fees owed left out)
 * is floor((in - fee) * y / (x + in - fee)), received less the output's transfer fee.
 */
export function quoteBaseInput(x, y, rate, amountIn, inFee, outFee) {
  const actual = amountIn - transferFee(inFee, amountIn);
  const less = actual - ceilDiv(actual * rate, FEE_RATE_DENOMINATOR);
  const out = (less * y) / (x + less);
  return out - transferFee(outFee, out);
}

/** quoteBaseOutput is what swap_base_output takes in (transfer fee included) for received out. */
export function quoteBaseOutput(x, y, rate, received, inFee, outFee) {
  const out = grossUp(outFee, received);
  if (out >= y) return null;
  const swapped = ceilDiv(x * out, y - out);
  const input = ceilDiv(swapped * FEE_RATE_DENOMINATOR, FEE_RATE_DENOMINATOR - rate);
  return grossUp(inFee, input);
}
