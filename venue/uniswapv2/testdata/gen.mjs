// Generates vectors.json: Uniswap V2 quotes computed by the official SDK
// (@uniswap/v2-sdk with @uniswap/sdk-core, exact versions pinned in
// package.json and package-lock.json), checked by trade/v2math_test.go.
//
// Regenerate from the repository root with:
//
//	npm ci --prefix venue/uniswapv2/testdata && node venue/uniswapv2/testdata/gen.mjs
//
// The cases come from a seeded PRNG (splitmix64), so the output is the same
// on every run with the same SDK versions; a diff in vectors.json after
// regenerating means the SDK changed behaviour.
//
// Every number in the output is a decimal string. The SDK's pairs always
// charge the 0.3% fee (feeBps 30); other fees are tested in Go only.

import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
// The packages' "import" builds use extensionless relative imports that
// Node's ESM loader rejects, so load their CommonJS builds.
const { CurrencyAmount, Percent, Token } = require('@uniswap/sdk-core')
const { Pair, Route, Trade } = require('@uniswap/v2-sdk')
const versionOf = (name) => JSON.parse(readFileSync(join(here, 'node_modules', name, 'package.json'), 'utf8')).version

const SEED = 0x5eed2024n
const MASK64 = (1n << 64n) - 1n
let state = SEED

// splitmix64: a tiny deterministic PRNG on BigInt.
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & MASK64
  let z = state
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64
  return z ^ (z >> 31n)
}

// intn returns an integer in [0, n) for a small positive number n.
function intn(n) {
  return Number(next64() % BigInt(n))
}

function pick(list) {
  return list[intn(list.length)]
}

// randBits returns a BigInt of exactly `bits` bits (the top bit set), bits >= 1.
function randBits(bits) {
  let v = 0n
  for (let have = 0; have < bits; have += 64) v = (v << 64n) | next64()
  v &= (1n << BigInt(bits)) - 1n
  return v | (1n << BigInt(bits - 1))
}

// randBelow returns a BigInt in [0, n) for n > 0.
function randBelow(n) {
  const bits = n.toString(2).length + 64
  let v = 0n
  for (let have = 0; have < bits; have += 64) v = (v << 64n) | next64()
  return v % n
}

const MAX_RESERVE = (1n << 112n) - 1n // uint112, the pair's reserve type

// reserve spans 1 wei to 2^112-1, roughly uniform in bit length, with the
// extremes picked on purpose now and then.
function reserve() {
  switch (intn(20)) {
    case 0:
      return MAX_RESERVE
    case 1:
      return MAX_RESERVE - randBelow(1000n)
    case 2:
      return BigInt(1 + intn(1000))
    default:
      return randBits(1 + intn(112))
  }
}

// amountFor spans 1 wei to more than the input reserve.
function amountFor(reserveIn) {
  const rb = reserveIn.toString(2).length
  switch (intn(16)) {
    case 0:
      return 1n
    case 1:
      return reserveIn
    case 2:
      return reserveIn * BigInt(2 + intn(1000))
    case 3:
      return BigInt(1 + intn(10000))
    default:
      return randBits(1 + intn(rb + 8))
  }
}

// Tokens with varied decimals; addresses are distinct and all lowercase
// (accepted by the SDK's address check), so their sort order (token0/token1)
// varies with the index.
const DECIMALS = [0, 2, 6, 8, 9, 12, 18, 18, 18, 24]
let tokenSerial = 0
function token() {
  tokenSerial++
  const addr = '0x' + (next64().toString(16).padStart(16, '0') + tokenSerial.toString(16).padStart(24, '0'))
  return new Token(1, addr, pick(DECIMALS), `T${tokenSerial}`, `Token ${tokenSerial}`)
}

const str = (a) => a.quotient.toString()
const errName = (e) => {
  if (e && (e.isInsufficientInputAmountError || e.isInsufficientReservesError)) return e.name
  throw e // anything else (an invariant of the SDK) is a bug in this generator
}

const SLIPPAGES = [0, 1, 5, 10, 30, 50, 100, 250, 333, 1000, 4999, 5000, 9999, 10000, 10001, 20000]

// exactIn builds a route of pools from fresh tokens and runs Trade.exactIn.
// opts may force a reserve or the amount.
function exactInCase(nHops, opts = {}) {
  const tokens = []
  for (let i = 0; i <= nHops; i++) tokens.push(token())
  const pairs = []
  const hops = []
  for (let i = 0; i < nHops; i++) {
    const rIn = opts.reserves?.[i]?.[0] ?? reserve()
    const rOut = opts.reserves?.[i]?.[1] ?? reserve()
    const pair = new Pair(
      CurrencyAmount.fromRawAmount(tokens[i], rIn.toString()),
      CurrencyAmount.fromRawAmount(tokens[i + 1], rOut.toString()),
    )
    pairs.push(pair)
    hops.push({
      reserveIn: str(pair.reserveOf(tokens[i])),
      reserveOut: str(pair.reserveOf(tokens[i + 1])),
      inputIsToken0: pair.token0.equals(tokens[i]),
      decimalsIn: tokens[i].decimals,
      decimalsOut: tokens[i + 1].decimals,
    })
  }
  const amountIn = opts.amountIn ?? amountFor(BigInt(hops[0].reserveIn))
  const input = CurrencyAmount.fromRawAmount(tokens[0], amountIn.toString())
  const c = { hops, amountIn: amountIn.toString() }

  // Hop by hop with pair.getOutputAmount, like the router's getAmountsOut.
  const amounts = [amountIn.toString()]
  let cur = input
  try {
    for (const pair of pairs) {
      ;[cur] = pair.getOutputAmount(cur)
      amounts.push(str(cur))
    }
  } catch (e) {
    c.error = errName(e)
  }

  // The same through Route and Trade.exactIn.
  let trade
  try {
    trade = Trade.exactIn(new Route(pairs, tokens[0], tokens[nHops]), input)
  } catch (e) {
    const name = errName(e)
    if (name !== c.error) throw new Error(`Trade.exactIn threw ${name}, getOutputAmount ${c.error}`)
    return c
  }
  if (c.error) throw new Error(`getOutputAmount threw ${c.error}, Trade.exactIn did not`)
  if (str(trade.outputAmount) !== amounts[amounts.length - 1]) throw new Error('Trade output differs from the hop-by-hop output')
  c.amounts = amounts
  const pi = trade.priceImpact
  const places = intn(9)
  c.priceImpact = {
    numerator: pi.numerator.toString(),
    denominator: pi.denominator.toString(),
    // Percent.toFixed: the fraction times 100, rounded half up (big.js).
    fixedDecimals: places,
    fixed: pi.toFixed(places),
  }
  c.minOut = []
  const seen = new Set()
  while (c.minOut.length < 3) {
    const bps = intn(4) === 0 ? intn(10001) : pick(SLIPPAGES)
    if (seen.has(bps)) continue
    seen.add(bps)
    c.minOut.push({ slippageBps: bps, amount: str(trade.minimumAmountOut(new Percent(bps, 10000))) })
  }
  return c
}

// getInputAmount on one pair; opts may force the amount out.
function inputCase(opts = {}) {
  const a = token()
  const b = token()
  const rIn = reserve()
  const rOut = opts.reserveOut ?? reserve()
  const pair = new Pair(CurrencyAmount.fromRawAmount(a, rIn.toString()), CurrencyAmount.fromRawAmount(b, rOut.toString()))
  let amountOut = opts.amountOut?.(rOut)
  if (amountOut === undefined) {
    // 1 wei up to just below the reserve, now and then at or above it.
    switch (intn(12)) {
      case 0:
        amountOut = 1n
        break
      case 1:
        amountOut = rOut - 1n > 0n ? rOut - 1n : 1n
        break
      case 2:
        amountOut = rOut + randBelow(rOut + 1n)
        break
      default:
        amountOut = 1n + randBelow(rOut)
    }
  }
  const c = {
    reserveIn: str(pair.reserveOf(a)),
    reserveOut: str(pair.reserveOf(b)),
    inputIsToken0: pair.token0.equals(a),
    amountOut: amountOut.toString(),
  }
  try {
    const [amountIn] = pair.getInputAmount(CurrencyAmount.fromRawAmount(b, amountOut.toString()))
    c.amountIn = str(amountIn)
  } catch (e) {
    c.error = errName(e)
  }
  return c
}

const exactIn = []
const getInputAmount = []

// Random single-hop and two-hop routes, until there are enough quotes that
// succeed; random ones that fail (mostly a zero output, since reserves are
// drawn independently and prices are wild) are kept up to a cap.
for (const [nHops, wantOK, maxFailed] of [[1, 750, 150], [2, 450, 150]]) {
  let ok = 0
  let failed = 0
  while (ok < wantOK) {
    const c = exactInCase(nHops)
    if (!c.error) {
      ok++
      exactIn.push(c)
    } else if (failed < maxFailed) {
      failed++
      exactIn.push(c)
    }
  }
}

// Cases that must fail with a zero output: tiny amounts into deep, lopsided pools.
for (let i = 0; i < 40; i++) {
  const rIn = randBits(80 + intn(32))
  const rOut = BigInt(1 + intn(1000))
  exactIn.push(exactInCase(1, { reserves: [[rIn, rOut]], amountIn: BigInt(1 + intn(1000)) }))
}
for (let i = 0; i < 30; i++) {
  // The first hop succeeds, the second has too little to give.
  const first = [randBits(40), randBits(60)]
  const second = [randBits(100 + intn(12)), BigInt(1 + intn(100))]
  exactIn.push(exactInCase(2, { reserves: [first, second], amountIn: randBits(1 + intn(20)) }))
}
// A zero amount in, and empty pools (the SDK checks the reserves first, so
// the last one, both empty and with nothing in, is InsufficientReservesError).
for (let i = 0; i < 5; i++) exactIn.push(exactInCase(1 + (i % 2), { amountIn: 0n }))
for (let i = 0; i < 6; i++) {
  const r = [i % 2 ? 0n : reserve(), i % 2 ? reserve() : 0n]
  exactIn.push(exactInCase(1, { reserves: [r], amountIn: i === 5 ? 0n : randBits(1 + intn(100)) }))
}

// getInputAmount: random, then amounts out at or over the reserve.
for (let i = 0; i < 400; i++) getInputAmount.push(inputCase())
for (let i = 0; i < 20; i++) getInputAmount.push(inputCase({ amountOut: (r) => r }))
for (let i = 0; i < 20; i++) getInputAmount.push(inputCase({ amountOut: (r) => r + BigInt(1 + intn(1000)) }))
for (let i = 0; i < 10; i++) getInputAmount.push(inputCase({ reserveOut: MAX_RESERVE, amountOut: (r) => r - 1n }))

const count = (list, f) => list.filter(f).length
const counts = {
  exactIn: exactIn.length,
  exactInOneHop: count(exactIn, (c) => c.hops.length === 1),
  exactInTwoHop: count(exactIn, (c) => c.hops.length === 2),
  exactInErrors: count(exactIn, (c) => c.error),
  exactInTwoHopOK: count(exactIn, (c) => c.hops.length === 2 && !c.error),
  getInputAmount: getInputAmount.length,
  getInputAmountErrors: count(getInputAmount, (c) => c.error),
}

const out = {
  comment: 'Generated by gen.mjs from the official Uniswap V2 SDK; do not edit. Regenerate: npm ci --prefix venue/uniswapv2/testdata && node venue/uniswapv2/testdata/gen.mjs',
  sdk: { '@uniswap/v2-sdk': versionOf('@uniswap/v2-sdk'), '@uniswap/sdk-core': versionOf('@uniswap/sdk-core') },
  seed: SEED.toString(),
  feeBps: 30,
  counts,
  exactIn,
  getInputAmount,
}
// One case a line, so that a regeneration diffs case by case.
const lines = (list) => '[\n' + list.map((c) => '  ' + JSON.stringify(c)).join(',\n') + '\n ]'
const text =
  '{\n' +
  Object.entries(out)
    .map(([k, v]) => ` ${JSON.stringify(k)}: ${Array.isArray(v) ? lines(v) : JSON.stringify(v)}`)
    .join(',\n') +
  '\n}\n'
JSON.parse(text)
writeFileSync(join(here, 'vectors.json'), text)
console.log(JSON.stringify(counts))
