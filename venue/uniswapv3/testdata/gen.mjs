// Generates vectors.json: Uniswap V3 math computed by the official SDK (@uniswap/v3-sdk with
// @uniswap/sdk-core, exact versions pinned in package.json and package-lock.json), checked
// exactly by ../vectors_test.go. Run it through gen.sh, which installs the pinned SDK in a
// temporary directory (SDK_DIR) and removes it afterwards.
//
// The cases come from a seeded PRNG (splitmix64): the same SDK gives the same file. Every number
// is a decimal string; a case the SDK refuses (an invariant) records "error": true instead.
//
// Case classes:
//   tickToSqrt    TickMath.getSqrtRatioAtTick: the bounds, ticks near 0, random ticks
//   sqrtToTick    TickMath.getTickAtSqrtRatio: the bounds, exact tick ratios and their
//                 neighbours (±1), random ratios over the whole range
//   sqrtPrice     SqrtPriceMath.getNextSqrtPriceFromInput/Output (both directions) and
//                 getAmount0Delta/getAmount1Delta (rounded up and down)
//   swapStep      SwapMath.computeSwapStep: exact input and exact output, both directions,
//                 fees 100/500/3000/10000 pips, targets near and far
//   swap          Pool.getOutputAmount (exact input) and Pool.getInputAmount (exact output) on
//                 pools with several positions (a TickListDataProvider of their ticks), with and
//                 without a price limit: amount, price, tick and liquidity after

import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'

const sdkDir = process.env.SDK_DIR
if (!sdkDir) throw new Error('SDK_DIR is not set: run gen.sh')
const out = process.env.OUT
const require = createRequire(join(sdkDir, 'package.json'))
const JSBI = require('jsbi')
const { Token, CurrencyAmount } = require('@uniswap/sdk-core')
const { TickMath, SqrtPriceMath, SwapMath, Pool, TickListDataProvider, TICK_SPACINGS } = require('@uniswap/v3-sdk')
const versionOf = (name) => JSON.parse(readFileSync(join(sdkDir, 'node_modules', name, 'package.json'), 'utf8')).version

let state = 0x5eed3b3n
const MASK64 = (1n << 64n) - 1n
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & MASK64
  let z = state
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64
  return z ^ (z >> 31n)
}
const intn = (n) => Number(next64() % BigInt(n))
const pick = (list) => list[intn(list.length)]
// randBits: a BigInt of exactly bits bits (top bit set).
function randBits(bits) {
  let v = 0n
  for (let have = 0; have < bits; have += 64) v = (v << 64n) | next64()
  v &= (1n << BigInt(bits)) - 1n
  return v | (1n << BigInt(bits - 1))
}
function randBelow(n) {
  const bits = n.toString(2).length + 64
  let v = 0n
  for (let have = 0; have < bits; have += 64) v = (v << 64n) | next64()
  return v % n
}
const J = (x) => JSBI.BigInt(x.toString())
const S = (x) => x.toString()
const MIN_TICK = TickMath.MIN_TICK
const MAX_TICK = TickMath.MAX_TICK
const MIN_SQRT = BigInt(TickMath.MIN_SQRT_RATIO.toString())
const MAX_SQRT = BigInt(TickMath.MAX_SQRT_RATIO.toString())
const sqrtAt = (tick) => BigInt(TickMath.getSqrtRatioAtTick(tick).toString())
const randTick = () => pick([() => intn(2 * MAX_TICK + 1) + MIN_TICK, () => intn(2001) - 1000, () => intn(400001) - 200000])()
// randSqrt: a sqrt price in [MIN_SQRT, MAX_SQRT).
function randSqrt() {
  switch (intn(3)) {
    case 0:
      return MIN_SQRT + randBelow(MAX_SQRT - MIN_SQRT)
    case 1: {
      const t = randTick()
      const lo = sqrtAt(t)
      const hi = t < MAX_TICK ? sqrtAt(t + 1) : MAX_SQRT
      return lo + randBelow(hi - lo)
    }
    default: {
      const v = randBits(33 + intn(128))
      return v < MIN_SQRT ? MIN_SQRT : v >= MAX_SQRT ? MAX_SQRT - 1n : v
    }
  }
}
function attempt(f) {
  try {
    return f()
  } catch (e) {
    return { error: true }
  }
}

const tickToSqrt = []
for (const t of [MIN_TICK, MIN_TICK + 1, MAX_TICK - 1, MAX_TICK, -1, 0, 1, -60, 60, 887220, -887220]) {
  tickToSqrt.push({ tick: t, sqrtPriceX96: S(sqrtAt(t)) })
}
while (tickToSqrt.length < 300) {
  const t = randTick()
  tickToSqrt.push({ tick: t, sqrtPriceX96: S(sqrtAt(t)) })
}

const sqrtToTick = []
const addSqrt = (p) => sqrtToTick.push({ sqrtPriceX96: S(p), tick: TickMath.getTickAtSqrtRatio(J(p)) })
for (const p of [MIN_SQRT, MIN_SQRT + 1n, MAX_SQRT - 1n, MAX_SQRT - 2n, 1n << 96n, (1n << 96n) - 1n, (1n << 96n) + 1n]) addSqrt(p)
while (sqrtToTick.length < 350) {
  if (intn(2) === 0) {
    const t = randTick()
    const p = sqrtAt(t)
    for (const q of [p - 1n, p, p + 1n]) if (q >= MIN_SQRT && q < MAX_SQRT) addSqrt(q)
  } else {
    addSqrt(randSqrt())
  }
}

const randLiquidity = () => randBits(1 + intn(128))
const randAmount = () => randBits(1 + intn(pick([64, 128, 160, 200])))
const sqrtPrice = []
while (sqrtPrice.length < 500) {
  const fn = pick(['nextFromInput', 'nextFromOutput', 'amount0Delta', 'amount1Delta'])
  const c = { fn }
  if (fn === 'nextFromInput' || fn === 'nextFromOutput') {
    c.sqrtPriceX96 = randSqrt()
    c.liquidity = randLiquidity()
    c.amount = intn(10) === 0 ? 0n : randAmount()
    c.zeroForOne = intn(2) === 0
    const f = fn === 'nextFromInput' ? SqrtPriceMath.getNextSqrtPriceFromInput : SqrtPriceMath.getNextSqrtPriceFromOutput
    const r = attempt(() => ({ result: S(f.call(SqrtPriceMath, J(c.sqrtPriceX96), J(c.liquidity), J(c.amount), c.zeroForOne)) }))
    Object.assign(c, r)
  } else {
    c.sqrtA = randSqrt()
    c.sqrtB = intn(3) === 0 ? c.sqrtA + randBelow(1000n) : randSqrt()
    c.liquidity = randLiquidity()
    c.roundUp = intn(2) === 0
    const f = fn === 'amount0Delta' ? SqrtPriceMath.getAmount0Delta : SqrtPriceMath.getAmount1Delta
    Object.assign(c, attempt(() => ({ result: S(f.call(SqrtPriceMath, J(c.sqrtA), J(c.sqrtB), J(c.liquidity), c.roundUp)) })))
  }
  for (const k of ['sqrtPriceX96', 'liquidity', 'amount', 'sqrtA', 'sqrtB']) if (k in c) c[k] = S(c[k])
  sqrtPrice.push(c)
}

const FEES = [100, 500, 3000, 10000]
const swapStep = []
while (swapStep.length < 350) {
  const current = randSqrt()
  let target
  if (intn(2) === 0) {
    target = randSqrt()
  } else {
    const d = randBelow(current / BigInt(1 + intn(1000)) + 1n)
    target = intn(2) === 0 ? current - d : current + d
    if (target < MIN_SQRT) target = MIN_SQRT
    if (target > MAX_SQRT) target = MAX_SQRT
  }
  const liquidity = intn(20) === 0 ? 0n : randLiquidity()
  let amount = randBits(1 + intn(pick([64, 128, 200])))
  if (intn(2) === 0) amount = -amount
  const fee = pick(FEES)
  const c = { current: S(current), target: S(target), liquidity: S(liquidity), amountRemaining: S(amount), feePips: fee }
  Object.assign(c, attempt(() => {
    const [next, amountIn, amountOut, feeAmount] = SwapMath.computeSwapStep(J(current), J(target), J(liquidity), J(amount), fee)
    return { sqrtNext: S(next), amountIn: S(amountIn), amountOut: S(amountOut), feeAmount: S(feeAmount) }
  }))
  swapStep.push(c)
}

const tokenA = new Token(1, '0x0000000000000000000000000000000000000001', 18)
const tokenB = new Token(1, '0x0000000000000000000000000000000000000002', 18)
const swaps = []
while (swaps.length < 500) {
  const fee = pick(FEES)
  const spacing = TICK_SPACINGS[fee]
  const sqrtPriceX96 = (() => {
    const t = intn(400001) - 200000
    return sqrtAt(t) + randBelow(sqrtAt(t + 1) - sqrtAt(t))
  })()
  const tick = TickMath.getTickAtSqrtRatio(J(sqrtPriceX96))
  const nets = new Map()
  let liquidity = 0n
  const positions = 1 + intn(8)
  const width = pick([4, 40, 400, 4000])
  for (let i = 0; i < positions; i++) {
    const center = Math.floor(tick / spacing) + intn(2 * width + 1) - width
    let lower = (center - 1 - intn(width)) * spacing
    let upper = (center + 1 + intn(width)) * spacing
    const minT = Math.ceil(MIN_TICK / spacing) * spacing
    const maxT = Math.floor(MAX_TICK / spacing) * spacing
    lower = Math.max(lower, minT)
    upper = Math.min(upper, maxT)
    if (lower >= upper) continue
    const L = randBits(40 + intn(60))
    nets.set(lower, (nets.get(lower) ?? 0n) + L)
    nets.set(upper, (nets.get(upper) ?? 0n) - L)
    if (lower <= tick && tick < upper) liquidity += L
  }
  const ticks = [...nets.entries()].filter(([, n]) => n !== 0n).sort((a, b) => a[0] - b[0])
  const zeroForOne = intn(2) === 0
  const exactIn = intn(4) !== 0
  const amount = liquidity > 0n && intn(4) !== 0 ? randBelow(liquidity * BigInt(1 + intn(1000)) / 1000n * BigInt(pick([1, 10, 100, 10000]))) + 1n : randBits(1 + intn(120))
  let limit = null
  if (intn(4) === 0) {
    const d = randBelow(sqrtPriceX96 / 20n) + 1n
    limit = zeroForOne ? sqrtPriceX96 - d : sqrtPriceX96 + d
  }
  const c = {
    sqrtPriceX96: S(sqrtPriceX96), tick, liquidity: S(liquidity), fee, tickSpacing: spacing,
    ticks: ticks.map(([i, n]) => [i, S(n)]),
    zeroForOne, exactIn, amount: S(amount), sqrtPriceLimitX96: limit === null ? null : S(limit),
  }
  const pool = new Pool(tokenA, tokenB, fee, J(sqrtPriceX96), J(liquidity), tick,
    new TickListDataProvider(ticks.map(([index, n]) => ({ index, liquidityNet: J(n), liquidityGross: J(n < 0n ? -n : n) })), spacing))
  const [tokenIn, tokenOut] = zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0]
  let r
  try {
    r = exactIn
      ? await pool.getOutputAmount(CurrencyAmount.fromRawAmount(tokenIn, J(amount)), limit === null ? undefined : J(limit))
      : await pool.getInputAmount(CurrencyAmount.fromRawAmount(tokenOut, J(amount)), limit === null ? undefined : J(limit))
  } catch (e) {
    c.error = true
    swaps.push(c)
    continue
  }
  const [amt, after] = r
  Object.assign(c, {
    amountCalculated: S(amt.quotient), sqrtPriceX96After: S(after.sqrtRatioX96), tickAfter: after.tickCurrent, liquidityAfter: S(after.liquidity),
  })
  swaps.push(c)
}

const doc = {
  sdk: { '@uniswap/v3-sdk': versionOf('@uniswap/v3-sdk'), '@uniswap/sdk-core': versionOf('@uniswap/sdk-core') },
  counts: { tickToSqrt: tickToSqrt.length, sqrtToTick: sqrtToTick.length, sqrtPrice: sqrtPrice.length, swapStep: swapStep.length, swap: swaps.length },
  tickToSqrt, sqrtToTick, sqrtPrice, swapStep, swap: swaps,
}
writeFileSync(out, JSON.stringify(doc, null, 1) + '\n')
console.log(out, doc.counts)
