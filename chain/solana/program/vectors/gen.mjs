#!/usr/bin/env node
// gen.mjs writes cpmm_sdk_vectors.json: seeded, generated cases whose expected figures come from
// @raydium-io/raydium-sdk-v2's CPMM curve (CurveCalculator, ConstantProductCurve), loaded by
// sdk.mjs from the SDK's published build. Run it through gen.sh, which fetches the pinned packages
// into a temporary directory; nothing here is installed in the build or in `make test`.
//
// Where the on-chain program differs from the SDK by design (see README.md beside this file), the
// vector also carries the program's figure and the case class. The program's figure comes from
// `program*` below: the rules of Raydium's public CPMM source (raydium-cp-swap) and Token-2022's
// transfer-fee rules, restated here in BigInt with u64/u128 bounds; the SDK's own function computes
// every curve figure it can. Everywhere else the generator requires that restatement to agree
// with the SDK, so a vector without a class is one where the SDK's figure is the program's.
//
//   node gen.mjs --sdk DIR --acorn DIR --bn DIR --decimal DIR --out FILE [--seed N]

import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { loadSdk } from './sdk.mjs';

const { values: args } = parseArgs({
  options: {
    sdk: { type: 'string' },
    acorn: { type: 'string' },
    bn: { type: 'string' },
    decimal: { type: 'string' },
    out: { type: 'string' },
    seed: { type: 'string', default: '20' },
    meta: { type: 'string', default: '{}' },
  },
});
for (const k of ['sdk', 'acorn', 'bn', 'decimal', 'out']) if (!args[k]) throw new Error(`--${k} is required`);

const sdk = loadSdk({ sdkDir: args.sdk, acornPath: args.acorn, bnPath: args.bn });
const { BN, CurveCalculator, ConstantProductCurve, RoundDirection } = sdk;
const Decimal = createRequire(import.meta.url)(args.decimal).clone({ precision: 100, rounding: 1 /* ROUND_DOWN */ });

const M64 = (1n << 64n) - 1n;
const M128 = (1n << 128n) - 1n;
const D = 1_000_000n;
const LOCK = 100n;

// ---- the seeded generator: SplitMix64 ----
let state = BigInt(args.seed);
function next() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
const int = (n) => Number(next() % BigInt(n)); // 0 <= int(n) < n
const chance = (p) => int(1_000_000) < p * 1_000_000;
const pick = (xs) => xs[int(xs.length)];
const between = (lo, hi) => lo + (next() % (hi - lo + 1n)); // lo <= x <= hi (hi - lo < 2^64)
// logUniform: an amount spread evenly over orders of magnitude in [lo, hi]
function logUniform(lo, hi) {
  const bl = lo.toString(2).length, bh = hi.toString(2).length;
  const bits = bl + int(bh - bl + 1);
  let v = bits === 1 ? 1n : (1n << BigInt(bits - 1)) | (next() & ((1n << BigInt(bits - 1)) - 1n));
  if (v < lo) v = lo;
  if (v > hi) v = hi;
  return v;
}
// amount: a u64 of a regime, from tiny to the u64 bound
function amount(regime) {
  switch (regime ?? pick(['small', 'mid', 'mid', 'mid', 'large', 'huge', 'max'])) {
    case 'small': return BigInt(1 + int(1000));
    case 'mid': return logUniform(1000n, 10n ** 15n);
    case 'large': return logUniform(10n ** 15n, 1n << 62n);
    case 'huge': return logUniform(1n << 62n, M64);
    case 'max': return M64 - BigInt(int(4));
  }
  throw new Error(regime);
}

// ---- fee configs ----
// Raydium documents AmmConfig index 0 as trade 2500 (0.25%), protocol 120000 (12% of the trade
// fee), fund 40000 (4%), creator 500 (0.05%); its CPMM tiers are 0.01%, 0.25% and 1%. We add 2%
// and 4% tiers, the extremes (0, 1, trade + creator = 999,999) and random valid rates.
const STANDARD_TRADE = [100, 2500, 10000, 20000, 40000];
function rates() {
  const r = { trade: 0, protocol: 0, fund: 0, creator: 0 };
  switch (int(8)) {
    case 0: case 1: case 2: // a standard tier
      r.trade = pick(STANDARD_TRADE);
      r.protocol = 120000;
      r.fund = 40000;
      r.creator = pick([0, 500, 500, 1000, 2500, 10000]);
      break;
    case 3: // zero fees
      r.creator = pick([0, 0, 500]);
      r.protocol = pick([0, 120000]);
      r.fund = pick([0, 40000]);
      break;
    case 4: { // extremes: rates at the top of what create_amm_config accepts
      r.trade = pick([1, 999_999, 500_000, 999_000]);
      r.creator = pick([0, 1, 999_999 - r.trade]);
      r.protocol = pick([0, 1_000_000, 500_000]);
      r.fund = 1_000_000 - r.protocol;
      break;
    }
    default: // random valid: trade + creator < 1e6, protocol + fund <= 1e6
      r.trade = int(chance(0.7) ? 100_000 : 1_000_000);
      r.creator = int(Math.min(chance(0.7) ? 50_000 : 1_000_000, 1_000_000 - r.trade));
      r.protocol = int(1_000_001);
      r.fund = int(1_000_001 - r.protocol);
  }
  if (r.trade + r.creator >= 1_000_000) r.creator = 999_999 - r.trade;
  return r;
}

// ---- the SDK ----
const bn = (v) => new BN(v.toString());
const str = (b) => b.toString(10);
function sdkCall(f) {
  try {
    return f();
  } catch (e) {
    return { throws: String(e.message ?? e) };
  }
}
function sdkSwap(op, amt, rin, rout, rt, creatorRate, onInput) {
  return sdkCall(() => {
    const fn = op === 'swap_base_input' ? CurveCalculator.swapBaseInput : CurveCalculator.swapBaseOutput;
    const r = fn(bn(amt), bn(rin), bn(rout), bn(rt.trade), bn(creatorRate), bn(rt.protocol), bn(rt.fund), onInput);
    const o = {};
    for (const k of ['inputAmount', 'outputAmount', 'tradeFee', 'protocolFee', 'fundFee', 'creatorFee', 'newInputVaultAmount', 'newOutputVaultAmount']) o[k] = str(r[k]);
    return o;
  });
}
function sdkLp(lp, supply, r0, r1, ceiling) {
  return sdkCall(() => {
    const r = ConstantProductCurve.lpTokensToTradingTokens(bn(lp), bn(supply), bn(r0), bn(r1), ceiling ? RoundDirection.Ceiling : RoundDirection.Floor);
    return { tokenAmount0: str(r.tokenAmount0), tokenAmount1: str(r.tokenAmount1) };
  });
}
// the initial liquidity: CurveCalculator has no function for it; decimal.js (the SDK's dependency)
// takes the square root, rounded down, as CPMM's U128::integer_sqrt does.
function sdkInitLiquidity(a0, a1) {
  const s = BigInt(new Decimal((a0 * a1).toString()).sqrt().toFixed(0, 1));
  if (s * s > a0 * a1 || (s + 1n) * (s + 1n) <= a0 * a1) throw new Error(`decimal.js sqrt(${a0 * a1}) = ${s} is not the floor`);
  return s;
}

// ---- the program: CPMM's rules with its bounds ----
class Fail extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}
const fail = (code) => {
  throw new Fail(code);
};
const none = () => fail('ZeroTradingTokens'); // a None the program turns into ZeroTradingTokens
const panic = () => fail('Panic'); // an unwrap of a None, an overflowing cast: the program aborts
const u128 = (v) => (v < 0n || v > M128 ? null : v);
const ceilDiv = (a, num, den) => (den === 0n ? null : u128(a * num) === null || u128(a * num + den) === null ? null : (a * num + den - 1n) / den);
const floorDiv = (a, num, den) => (den === 0n || u128(a * num) === null ? null : (a * num) / den);
const preFee = (post, rate) => (rate === 0n ? post : rate > D ? null : ceilDiv(post, D, D - rate));

function curveBaseInput(amountIn, x, y, t, c, p, f, onInput) {
  let creator = 0n, trade, less;
  if (onInput) {
    const total = ceilDiv(amountIn, t + c, D) ?? none();
    creator = floorDiv(total, c, t + c) ?? none();
    trade = total - creator;
    less = amountIn >= total ? amountIn - total : none();
  } else {
    trade = ceilDiv(amountIn, t, D) ?? none();
    less = amountIn >= trade ? amountIn - trade : none();
  }
  const protocol = floorDiv(trade, p, D) ?? none();
  const fund = floorDiv(trade, f, D) ?? none();
  const num = u128(less * y) ?? panic();
  const den = u128(x + less) ?? panic();
  if (den === 0n) panic();
  const swapped = num / den;
  let output = swapped;
  if (!onInput) {
    creator = ceilDiv(swapped, c, D) ?? none();
    output = swapped - creator; // creator <= swapped
  }
  const newIn = u128(x + less) ?? none();
  const newOut = y >= swapped ? y - swapped : none();
  return { inputAmount: amountIn, outputAmount: output, tradeFee: trade, protocolFee: protocol, fundFee: fund, creatorFee: creator, newInputVaultAmount: newIn, newOutputVaultAmount: newOut };
}

function curveBaseOutput(amountOut, x, y, t, c, p, f, onInput) {
  let creator = 0n, actual = amountOut;
  if (!onInput) {
    actual = preFee(amountOut, c) ?? none();
    creator = actual - amountOut;
  }
  const num = u128(x * actual) ?? panic();
  const den = y >= actual ? y - actual : panic();
  if (den === 0n) panic();
  const swapped = (num + den - 1n) / den; // ceil, fits: num < 2^128 and den >= 1
  let input, trade;
  if (onInput) {
    const withFee = preFee(swapped, t + c) ?? panic();
    const total = withFee - swapped;
    creator = floorDiv(total, c, t + c) ?? none();
    trade = total - creator;
    input = withFee;
  } else {
    input = preFee(swapped, t) ?? panic();
    trade = input - swapped;
  }
  const protocol = floorDiv(trade, p, D) ?? none();
  const fund = floorDiv(trade, f, D) ?? none();
  const newIn = u128(x + swapped) ?? none();
  const newOut = y - actual;
  return { inputAmount: input, outputAmount: amountOut, tradeFee: trade, protocolFee: protocol, fundFee: fund, creatorFee: creator, newInputVaultAmount: newIn, newOutputVaultAmount: newOut };
}

// Token-2022's transfer fee (calculate_fee) and the inverse fee CPMM adds (get_transfer_inverse_fee)
const ONE_BPS = 10000n;
function transferFee(tf, amount) {
  if (!tf || tf[0] === 0 || amount === 0n) return 0n;
  const fee = (amount * BigInt(tf[0]) + ONE_BPS - 1n) / ONE_BPS;
  return fee < BigInt(tf[1]) ? fee : BigInt(tf[1]);
}
function inverseFee(tf, post) {
  if (!tf) return 0n;
  if (post === 0n) fail('InvalidInput');
  const [bps, max] = [BigInt(tf[0]), BigInt(tf[1])];
  if (bps === ONE_BPS) return max;
  let pre;
  if (bps === 0n) pre = post;
  else {
    const raw = (post * ONE_BPS + (ONE_BPS - bps) - 1n) / (ONE_BPS - bps);
    if (raw - post >= max) pre = post + max <= M64 ? post + max : panic();
    else pre = raw <= M64 ? raw : panic();
  }
  const fee = transferFee(tf, pre);
  if (post + fee > M64) panic();
  if (fee !== transferFee(tf, post + fee)) fail('TransferFeeCalculateNotMatch');
  return fee;
}
const fits64 = (v) => v >= 0n && v <= M64;

// programSwap: swap_base_input / swap_base_output as the program runs them on vaults holding
// reserve + owed, the payer holding all the input token's supply the input vault does not (the
// supply being u64::MAX) and none of the output token.
function programSwap(v) {
  const inIs0 = v.zeroForOne;
  const x = BigInt(inIs0 ? v.reserve0 : v.reserve1), y = BigInt(inIs0 ? v.reserve1 : v.reserve0);
  const owed = (v.owed ?? ['0', '0', '0', '0', '0', '0']).map(BigInt);
  const owedIn = inIs0 ? owed[0] + owed[2] + owed[4] : owed[1] + owed[3] + owed[5];
  const tfIn = inIs0 ? v.transferFee0 : v.transferFee1, tfOut = inIs0 ? v.transferFee1 : v.transferFee0;
  const t = BigInt(v.rates.trade), p = BigInt(v.rates.protocol), f = BigInt(v.rates.fund);
  const c = v.enableCreatorFee ? BigInt(v.rates.creator) : 0n;
  const amt = BigInt(v.amount);
  try {
    let r, userIn, userOut, feeIn, feeOut, vaultIn;
    if (v.op === 'swap_base_input') {
      feeIn = transferFee(tfIn, amt);
      const actual = amt - feeIn;
      if (actual <= 0n) fail('RequireGtViolated');
      r = curveBaseInput(actual, x, y, t, c, p, f, v.creatorFeeOnInput);
      if (!fits64(r.outputAmount)) panic();
      feeOut = transferFee(tfOut, r.outputAmount);
      if (r.outputAmount - feeOut <= 0n) fail('RequireGtViolated');
      if (u128(r.newInputVaultAmount * r.newOutputVaultAmount) === null) panic();
      [userIn, userOut, vaultIn] = [amt, r.outputAmount - feeOut, actual];
    } else {
      if (amt === 0n) fail('RequireGtViolated');
      feeOut = inverseFee(tfOut, amt);
      const gross = amt + feeOut;
      if (!fits64(gross)) panic();
      r = curveBaseOutput(gross, x, y, t, c, p, f, v.creatorFeeOnInput);
      if (u128(r.newInputVaultAmount * r.newOutputVaultAmount) === null) panic();
      if (!fits64(r.inputAmount)) panic();
      if (r.inputAmount === 0n) fail('RequireGtViolated');
      feeIn = inverseFee(tfIn, r.inputAmount);
      if (!fits64(r.inputAmount + feeIn)) panic();
      [userIn, userOut, vaultIn] = [r.inputAmount + feeIn, amt, r.inputAmount];
    }
    for (const k of ['protocolFee', 'fundFee', 'creatorFee']) if (!fits64(r[k])) panic();
    // the input transfer: a mint's supply is a u64, so the payer holds at most what the input
    // vault (reserve + fees owed) does not; the harness gives it exactly that much
    if (userIn > M64 - (x + owedIn)) fail('InsufficientFunds');
    return { in: userIn, out: userOut, ...r, inputTransferFee: feeIn, outputTransferFee: feeOut };
  } catch (e) {
    if (e instanceof Fail) return { error: e.code };
    throw e;
  }
}

function programLp(v) {
  const deposit = v.op === 'deposit';
  const lp = BigInt(v.lp), supply = BigInt(v.lpSupply);
  const r = [BigInt(v.reserve0), BigInt(v.reserve1)];
  const owed = (v.owed ?? ['0', '0', '0', '0', '0', '0']).map(BigInt);
  const gross = [r[0] + owed[0] + owed[2] + owed[4], r[1] + owed[1] + owed[3] + owed[5]];
  const tf = [v.transferFee0, v.transferFee1];
  try {
    if (lp === 0n) fail('RequireGtViolated');
    if (supply === 0n) none();
    const amounts = r.map((res) => {
      let a = (lp * res) / supply;
      if (deposit && (lp * res) % supply !== 0n && a > 0n) a += 1n;
      return a;
    });
    if (amounts[0] === 0n || amounts[1] === 0n) none();
    if (!fits64(amounts[0]) || !fits64(amounts[1])) panic();
    if (deposit) {
      const fees = amounts.map((a, i) => inverseFee(tf[i], a));
      for (let i = 0; i < 2; i++) if (!fits64(amounts[i] + fees[i])) panic();
      // the payer holds what the vault does not (a mint's supply is a u64)
      for (let i = 0; i < 2; i++) if (amounts[i] + fees[i] > M64 - gross[i]) fail('InsufficientFunds');
      if (supply + lp > M64) panic();
      return { amount0: amounts[0], amount1: amounts[1], transferFee0: fees[0], transferFee1: fees[1] };
    }
    if (lp > supply) panic();
    const out = amounts.map((a, i) => (a < r[i] ? a : r[i]));
    const fees = out.map((a, i) => transferFee(tf[i], a));
    return { amount0: out[0], amount1: out[1], transferFee0: fees[0], transferFee1: fees[1] };
  } catch (e) {
    if (e instanceof Fail) return { error: e.code };
    throw e;
  }
}

function isqrt(n) {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

function programInit(v) {
  const a = [BigInt(v.amount0), BigInt(v.amount1)];
  const tf = [v.transferFee0, v.transferFee1];
  const vault = a.map((x, i) => x - transferFee(tf[i], x));
  if (vault[0] === 0n || vault[1] === 0n) return { error: 'EmptySupply' };
  const liquidity = isqrt(vault[0] * vault[1]);
  if (liquidity < LOCK) return { error: 'InitLpAmountTooLess' };
  return { vault0: vault[0], vault1: vault[1], liquidity, creatorLp: liquidity - LOCK };
}

// ---- comparing the SDK's figure with the program's, and classifying ----
const strs = (o) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, typeof x === 'bigint' ? x.toString() : x]));

// sameSwap: does the SDK's SwapResult say what the program does (no transfer fee anywhere)?
function sameSwap(s, p) {
  if (s.throws || p.error) return false;
  const keys = ['inputAmount', 'outputAmount', 'tradeFee', 'protocolFee', 'fundFee', 'creatorFee', 'newInputVaultAmount', 'newOutputVaultAmount'];
  return keys.every((k) => s[k] === p[k].toString()) && p.in.toString() === s.inputAmount && p.out.toString() === s.outputAmount;
}

// classify names why the program's figure is not the SDK's; it throws when it cannot tell.
function classifySwap(v, s, p) {
  const tfActive = p.error ? Boolean(v.transferFee0 || v.transferFee1) : p.inputTransferFee > 0n || p.outputTransferFee > 0n;
  const c = v.enableCreatorFee ? v.rates.creator : 0;
  if (p.error === 'ZeroTradingTokens' && v.creatorFeeOnInput && v.rates.trade + c === 0) return 'zero_fee_split';
  if (p.error === 'Panic' || p.error === 'InsufficientFunds') return 'u64_bound';
  if (tfActive) return 'transfer_fee'; // checkTransferFeeSwap holds the curve part to the SDK
  if (v.op === 'swap_base_input' && v.creatorFeeOnInput && !s.throws) {
    // the program's fees: one rounded-up total, split
    const amt = BigInt(v.amount), t = BigInt(v.rates.trade), cr = BigInt(c);
    const total = ceilDiv(amt, t + cr, D), creator = floorDiv(total, cr, t + cr);
    if (total - creator !== BigInt(s.tradeFee) || creator !== BigInt(s.creatorFee)) return 'creator_fee_rounding';
  }
  if (s.throws || Object.values(s).some((x) => BigInt(x) < 0n || BigInt(x) > M64)) return 'u64_bound';
  if (p.error === 'RequireGtViolated') return 'zero_refused';
  throw new Error(`unclassified difference: ${JSON.stringify({ v, s, p: strs(p) })}`);
}

// checkTransferFee: where the vector has a transfer fee and the program succeeds, the program's
// curve figure must be the SDK's figure on the amounts the curve really sees.
function checkTransferFeeSwap(v, p) {
  if (p.error) return;
  const inIs0 = v.zeroForOne;
  const x = inIs0 ? v.reserve0 : v.reserve1, y = inIs0 ? v.reserve1 : v.reserve0;
  const net = v.op === 'swap_base_input' ? p.inputAmount : p.outputAmount;
  const s = sdkSwap(v.op, net, x, y, v.rates, v.enableCreatorFee ? v.rates.creator : 0, v.creatorFeeOnInput);
  const fake = { ...p, in: p.inputAmount, out: p.outputAmount };
  if (!sameSwap(s, fake) && !(v.op === 'swap_base_input' && v.creatorFeeOnInput)) {
    throw new Error(`transfer-fee vector: the SDK on net amounts disagrees: ${JSON.stringify({ v, s, p: strs(p) })}`);
  }
}

// ---- the vectors ----
const vectors = [];
const counter = {};
function id(op) {
  const pre = { swap_base_input: 'sbi', swap_base_output: 'sbo', deposit: 'dep', withdraw: 'wd', initialize: 'init' }[op];
  counter[pre] = (counter[pre] ?? 0) + 1;
  return `${pre}-${String(counter[pre]).padStart(4, '0')}`;
}

function owedFor(r0, r1) {
  if (!chance(0.25)) return undefined;
  const room = (r) => (M64 - r < 1_000_000n ? M64 - r : 1_000_000n);
  const part = (r) => {
    const total = between(0n, room(r));
    const a = between(0n, total), b = between(0n, total - a);
    return [a, b, total - a - b];
  };
  const [p0, f0, c0] = part(r0), [p1, f1, c1] = part(r1);
  return [p0, p1, f0, f1, c0, c1].map(String);
}

function transferFeeCfg() {
  return [pick([1, 25, 100, 250, 1000, 5000, 9999]), String(pick([0n, 1n, 1000n, 10n ** 6n, 10n ** 12n, M64]))];
}

function swapVector(op, opts = {}) {
  const v = { id: id(op), op, zeroForOne: chance(0.5) };
  v.rates = opts.rates ?? rates();
  v.creatorFeeOn = int(3);
  v.enableCreatorFee = chance(0.6);
  v.creatorFeeOnInput = v.creatorFeeOn === 0 ? true : v.creatorFeeOn === 1 ? v.zeroForOne : !v.zeroForOne;
  let r0, r1;
  if (opts.t22) {
    r0 = amount(pick(['mid', 'mid', 'large']));
    r1 = amount(pick(['mid', 'mid', 'large']));
  } else {
    const regime = pick(['small', 'small', 'mid', 'mid', 'mid', 'mid', 'mid', 'large', 'large', 'large', 'huge', 'max', 'skew']);
    if (regime === 'skew') [r0, r1] = chance(0.5) ? [amount('small'), amount('huge')] : [amount('huge'), amount('small')];
    else [r0, r1] = [amount(regime), amount(pick([regime, regime, regime, 'mid', 'large', 'huge']))];
  }
  v.reserve0 = String(r0);
  v.reserve1 = String(r1);
  const owed = opts.t22 ? undefined : owedFor(r0, r1);
  if (owed) v.owed = owed;
  if (opts.t22) {
    const side = int(3);
    if (side !== 1) v.transferFee0 = transferFeeCfg();
    if (side !== 0) v.transferFee1 = transferFeeCfg();
  }
  const x = v.zeroForOne ? r0 : r1, y = v.zeroForOne ? r1 : r0;
  let amt;
  if (op === 'swap_base_input') {
    amt = opts.t22 ? amount(pick(['small', 'mid', 'mid'])) : pick([() => amount('small'), () => amount(), () => logUniform(1n, x), () => logUniform(x / 1000000n || 1n, x), () => logUniform(x / 1000n || 1n, x), () => logUniform(x / 1000n || 1n, x), () => amount('max')])();
    // mostly what the input vault can still take (its u64 bound), sometimes past it
    const owedIn = (v.owed ?? []).map(BigInt).filter((_, i) => i % 2 === (v.zeroForOne ? 0 : 1)).reduce((a, b) => a + b, 0n);
    const room = M64 - x - owedIn;
    if (amt > room && room > 0n && chance(0.85)) amt = logUniform(1n, room);
  } else {
    const choices = [
      () => amount('small'),
      () => y / BigInt(2 + int(1000)) || 1n,
      () => y / BigInt(2 + int(1000)) || 1n,
      () => y / BigInt(2 + int(1000)) || 1n,
      () => logUniform(1n, y),
      () => logUniform(1n, y),
    ];
    if (chance(0.4)) choices.push(() => (y > 10n ? y - BigInt(1 + int(10)) : 1n));
    if (!opts.t22 && chance(0.3)) choices.push(() => (chance(0.5) ? y : y + BigInt(1 + int(10))), () => amount());
    amt = pick(choices)();
    if (amt === 0n) amt = 1n;
    if (amt > M64) amt = M64;
  }
  v.amount = String(amt);
  v.sdk = sdkSwap(op, amt, x, y, v.rates, v.enableCreatorFee ? v.rates.creator : 0, v.creatorFeeOnInput);
  const p = programSwap(v);
  if (v.transferFee0 || v.transferFee1) checkTransferFeeSwap(v, p);
  if (!(sameSwap(v.sdk, p) && p.inputTransferFee === 0n && p.outputTransferFee === 0n)) {
    v.class = classifySwap(v, v.sdk, p);
    v.program = strs(p);
  }
  return v;
}

function lpVector(op, opts = {}) {
  const v = { id: id(op), op };
  let supply, r0, r1, lp;
  if (opts.t22) {
    supply = amount(pick(['mid', 'large']));
    r0 = amount(pick(['mid', 'large']));
    r1 = amount(pick(['mid', 'large']));
  } else {
    const regime = pick(['small', 'mid', 'mid', 'mid', 'large', 'large', 'huge', 'max']);
    supply = amount(regime);
    const near = () => (chance(0.5) ? amount(regime) : logUniform(supply / 1000n || 1n, supply * 1000n > M64 ? M64 : supply * 1000n));
    r0 = pick([near, near, near, () => amount()])();
    r1 = pick([near, near, near, () => amount()])();
  }
  const owedLp = opts.t22 ? undefined : owedFor(r0, r1);
  if (op === 'deposit') {
    lp = pick([() => amount('small'), () => logUniform(1n, supply), () => logUniform(1n, supply), () => supply / BigInt(1 + int(100)) || 1n, () => amount(), ...(opts.t22 ? [] : [() => supply * BigInt(1 + int(100))])])();
    // mostly what the vaults and the LP supply can still take, sometimes past it
    const owed = (owedLp ?? []).map(BigInt);
    const room = [M64 - r0, M64 - r1].map((x, i) => x - (owed[i] ?? 0n) - (owed[i + 2] ?? 0n) - (owed[i + 4] ?? 0n));
    const fitsAll = (l) => l <= M64 - supply && room.every((rm, i) => (l * [r0, r1][i] + supply - 1n) / supply <= rm);
    if (!fitsAll(lp) && chance(0.8)) {
      let lo = 1n, hi = lp;
      while (lo < hi) {
        const mid = (lo + hi + 1n) / 2n;
        if (fitsAll(mid)) lo = mid;
        else hi = mid - 1n;
      }
      if (fitsAll(lo)) lp = logUniform(1n, lo);
    }
  }
  else lp = pick([() => between(1n, supply < 1000n ? supply : 1000n), () => logUniform(1n, supply), () => supply / BigInt(1 + int(100)) || 1n, () => supply])();
  if (lp === 0n) lp = 1n;
  if (lp > M64) lp = M64;
  Object.assign(v, { lp: String(lp), lpSupply: String(supply), reserve0: String(r0), reserve1: String(r1) });
  if (owedLp) v.owed = owedLp;
  if (opts.t22) {
    const side = int(3);
    if (side !== 1) v.transferFee0 = transferFeeCfg();
    if (side !== 0) v.transferFee1 = transferFeeCfg();
  }
  v.sdk = sdkLp(lp, supply, r0, r1, op === 'deposit');
  const p = programLp(v);
  const agrees = !p.error && !v.sdk.throws && v.sdk.tokenAmount0 === p.amount0.toString() && v.sdk.tokenAmount1 === p.amount1.toString() && p.transferFee0 === 0n && p.transferFee1 === 0n;
  if (!agrees) {
    let cls;
    if (p.error === 'Panic' || p.error === 'InsufficientFunds') cls = 'u64_bound';
    else if (p.error === 'ZeroTradingTokens') cls = 'zero_refused';
    else if (!p.error && (v.transferFee0 || v.transferFee1)) {
      if (v.sdk.tokenAmount0 !== p.amount0.toString() || v.sdk.tokenAmount1 !== p.amount1.toString()) throw new Error(`lp amounts differ: ${JSON.stringify(v)}`);
      cls = 'transfer_fee';
    } else throw new Error(`unclassified lp difference: ${JSON.stringify({ v, p: strs(p) })}`);
    v.class = cls;
    v.program = strs(p);
  }
  return v;
}

function initVector(opts = {}) {
  const v = { id: id('initialize'), op: 'initialize' };
  let a0, a1;
  if (opts.t22) [a0, a1] = [amount(pick(['small', 'mid', 'mid', 'large'])), amount(pick(['small', 'mid', 'mid', 'large']))];
  else {
    const regime = pick(['small', 'small', 'mid', 'mid', 'large', 'huge', 'max']);
    [a0, a1] = [amount(regime), amount(pick([regime, 'small', 'mid', 'max']))];
  }
  Object.assign(v, { amount0: String(a0), amount1: String(a1) });
  if (opts.t22) {
    const side = int(3);
    if (side !== 1) v.transferFee0 = transferFeeCfg();
    if (side !== 0) v.transferFee1 = transferFeeCfg();
  }
  const s = sdkInitLiquidity(a0, a1);
  v.sdk = { liquidity: String(s), creatorLp: String(s - LOCK) };
  const p = programInit(v);
  if (!p.error && p.liquidity !== isqrt(p.vault0 * p.vault1)) throw new Error('isqrt');
  if (p.error || p.liquidity !== s || p.vault0 !== a0 || p.vault1 !== a1) {
    // a transfer fee (taken from the initial amounts) or the 100 LP lock
    const feeTaken = transferFee(v.transferFee0, a0) > 0n || transferFee(v.transferFee1, a1) > 0n;
    v.class = feeTaken ? 'transfer_fee' : 'zero_refused';
    v.program = strs(p);
  }
  return v;
}

const N = { sbi: 650, sbo: 650, dep: 170, wd: 160, init: 70, t22Swap: 70, t22Lp: 25, t22Init: 20 };
for (let i = 0; i < N.sbi; i++) vectors.push(swapVector('swap_base_input'));
for (let i = 0; i < N.sbo; i++) vectors.push(swapVector('swap_base_output'));
for (let i = 0; i < N.t22Swap; i++) vectors.push(swapVector('swap_base_input', { t22: true }));
for (let i = 0; i < N.t22Swap; i++) vectors.push(swapVector('swap_base_output', { t22: true }));
for (let i = 0; i < N.dep; i++) vectors.push(lpVector('deposit'));
for (let i = 0; i < N.t22Lp; i++) vectors.push(lpVector('deposit', { t22: true }));
for (let i = 0; i < N.wd; i++) vectors.push(lpVector('withdraw'));
for (let i = 0; i < N.t22Lp; i++) vectors.push(lpVector('withdraw', { t22: true }));
for (let i = 0; i < N.init; i++) vectors.push(initVector());
for (let i = 0; i < N.t22Init; i++) vectors.push(initVector({ t22: true }));

// every input is a u64 (the instruction arguments and account amounts)
for (const v of vectors) {
  for (const k of ['amount', 'reserve0', 'reserve1', 'lp', 'lpSupply', 'amount0', 'amount1']) {
    if (k in v && !fits64(BigInt(v[k]))) throw new Error(`${v.id}: ${k} = ${v[k]} is not a u64`);
  }
  if (v.owed && v.owed.some((o, i) => !fits64(BigInt(o)) || !fits64(BigInt(v[i % 2 ? 'reserve1' : 'reserve0']) + v.owed.filter((_, j) => j % 2 === i % 2).reduce((a, b) => a + BigInt(b), 0n)))) {
    throw new Error(`${v.id}: a vault (reserve + owed) is not a u64`);
  }
}

// ---- the file ----
const counts = { total: vectors.length, byOp: {}, byClass: {}, byOpAndClass: {} };
for (const v of vectors) {
  const cls = v.class ?? 'sdk';
  counts.byOp[v.op] = (counts.byOp[v.op] ?? 0) + 1;
  counts.byClass[cls] = (counts.byClass[cls] ?? 0) + 1;
  const k = `${v.op}/${cls}`;
  counts.byOpAndClass[k] = (counts.byOpAndClass[k] ?? 0) + 1;
}
// coverage of the swap dimensions: op, direction, where the creator fee is taken; fee configs
counts.swaps = {};
counts.feeConfigs = {};
for (const v of vectors) {
  if (!v.op.startsWith('swap')) continue;
  const side = !v.enableCreatorFee || v.rates.creator === 0 ? 'creator fee off' : v.creatorFeeOnInput ? 'creator fee on input' : 'creator fee on output';
  const k = `${v.op} ${v.zeroForOne ? '0->1' : '1->0'}, ${side}`;
  counts.swaps[k] = (counts.swaps[k] ?? 0) + 1;
  const r = v.rates;
  const cfg = r.protocol === 120000 && r.fund === 40000 && STANDARD_TRADE.includes(r.trade) ? `standard tier: trade ${r.trade}` : r.trade + r.creator === 0 ? 'zero trade and creator rates' : r.trade + r.creator === 999_999 || r.trade === 1 || r.protocol + r.fund === 1_000_000 ? 'extreme' : 'random';
  counts.feeConfigs[cfg] = (counts.feeConfigs[cfg] ?? 0) + 1;
}
const header = {
  about:
    'CPMM curve vectors: inputs, the figure of @raydium-io/raydium-sdk-v2 (CurveCalculator.swapBaseInput/swapBaseOutput, ConstantProductCurve.lpTokensToTradingTokens; initialize: decimal.js sqrt), and, where the on-chain program differs by design, the program figure and the case class. Generated by gen.sh; see README.md.',
  seed: Number(args.seed),
  packages: JSON.parse(args.meta),
  extracted: sdk.provenance,
  classes: {
    creator_fee_rounding: 'swap_base_input with the creator fee on the input: the SDK rounds the trade fee and the creator fee up separately; the program rounds their sum up once and splits it (creator = floor(total * creator_rate / (trade_rate + creator_rate))).',
    transfer_fee: 'a Token-2022 mint with a transfer fee: the SDK curve ignores it; the program swaps what arrives (input less its fee), grosses the output and deposits up by the inverse fee, takes the fee from withdrawn and initial amounts.',
    u64_bound: 'the SDK does not bound results: where a figure leaves u64 (or u128 inside the curve, or is negative, or the SDK throws) the program aborts (Panic); where a vault would pass u64 the payer cannot pay (a mint supply is a u64, and the payer holds all of it the vault does not), so the transfer fails (InsufficientFunds).',
    zero_refused: 'the program refuses what the SDK returns as a figure: a zero swap output (RequireGtViolated), a zero LP conversion (ZeroTradingTokens), an initial liquidity under the 100 LP lock (InitLpAmountTooLess).',
    zero_fee_split: 'trade_fee_rate + creator_fee_rate = 0 with the creator fee on the input (the default BothToken mode): the program splits a zero fee by a zero rate sum, a None, and fails with ZeroTradingTokens; the SDK returns a figure (base input) or throws (base output).',
  },
  counts,
};
let out = JSON.stringify(header, null, 2).replace(/\n}$/, ',\n  "vectors": [\n');
out += vectors.map((v) => '    ' + JSON.stringify(v)).join(',\n');
out += '\n  ]\n}\n';
writeFileSync(args.out, out);
console.error(`wrote ${vectors.length} vectors to ${args.out}`);
console.error(JSON.stringify(counts.byOpAndClass, null, 1));
