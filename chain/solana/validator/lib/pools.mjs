// The seeded CPMM pools and the background trader's swaps through them.
//
// Seeding (at genesis, deterministic for a seed): CPMM's fee tier configs written as state (only
// Raydium's admin may sign create_amm_config), the pool creation fee receiver written as state
// (a wrapped SOL account at CPMM's fixed address, which no seeded key can create), then every pool
// created by the program's own `initialize` in a real transaction signed by `pool-creator`, and
// LP deposits by `lp-provider` through the program's `deposit`.

import { compileLegacy, concat, parseTransaction, pubkey, sha256, signTransaction, unbs58 } from './codec.mjs';
import {
  AMM_CONFIGS, AMM_CONFIG_SIZE, AUTHORITY, CREATE_POOL_FEE_RECEIVER, LOCKED_LP, LP_DECIMALS, RAYDIUM_ADMIN, ammConfigAddress, ammConfigData,
  cpmmIxs, grossUp, poolAddresses, poolState, quoteBaseInput, quoteBaseOutput,
} from './cpmm.mjs';
import { CPMM_PROGRAM } from './programs.mjs';
import {
  ACCOUNT_SIZE, COMPUTE_BUDGET_PROGRAM, NATIVE_MINT, TOKEN_PROGRAM, activeTransferFee, associatedTokenAddress, ixs, le32, le64, parseMint,
  parseTokenAccount,
} from './token.mjs';

/**
 * POOLS are the seeded pools: base/quote in whole tokens at creation, priced as the mints are
 * meant to be (SOL ~150 USDC, AUR ~1.5 USDC, NIM ~0.25 USDC = 1/600 SOL, QRTZ ~0.06 USDC, EMB ~42
 * USDC), each under a config (its fee tier). EMB's 1 % transfer fee is paid on top, so that its
 * vault receives exactly the amount below.
 */
export const POOLS = [
  { name: 'SOL/USDC', base: 'WSOL', quote: 'USDC', config: 0, baseAmount: '2000', quoteAmount: '300000' },
  { name: 'AUR/USDC', base: 'AUR', quote: 'USDC', config: 1, baseAmount: '200000', quoteAmount: '300000' },
  { name: 'NIM/SOL', base: 'NIM', quote: 'WSOL', config: 2, baseAmount: '300000', quoteAmount: '500' },
  { name: 'QRTZ/USDC', base: 'QRTZ', quote: 'USDC', config: 3, baseAmount: '2500000', quoteAmount: '150000' },
  { name: 'EMB/USDC', base: 'EMB', quote: 'USDC', config: 0, baseAmount: '5000', quoteAmount: '210000' },
];

/** lp-provider's funding (whole tokens; WSOL: SOL it wraps) and deposits (pool, percent of the LP supply). */
const PROVIDER_FUNDS = [['USDC', '40000'], ['EMB', '300'], ['WSOL', '110']];
const DEPOSITS = [['SOL/USDC', 5n], ['EMB/USDC', 5n]];

/** The labels of the keypairs the pools add, and their genesis balances (lamports). */
export const POOL_LABELS = { 'pool-creator': 3_000n * 1_000_000_000n + 3_141_592n, 'lp-provider': 150n * 1_000_000_000n + 2_718_281n };

const cuLimit = (units) => ({ programId: unbs58(COMPUTE_BUDGET_PROGRAM), keys: [], data: concat(Uint8Array.of(2), le32(units)) });
const cuPrice = (microLamports) => ({ programId: unbs58(COMPUTE_BUDGET_PROGRAM), keys: [], data: concat(Uint8Array.of(3), le64(microLamports)) });
const closeAccount = (account, destination, owner) => ({
  programId: unbs58(TOKEN_PROGRAM),
  keys: [
    { pubkey: pubkey(account), isSigner: false, isWritable: true },
    { pubkey: pubkey(destination), isSigner: false, isWritable: true },
    { pubkey: pubkey(owner), isSigner: true, isWritable: false },
  ],
  data: Uint8Array.of(9),
});

/** nativeAccount is a wrapped SOL token account's data (amount 0, the rent-exempt reserve set). */
function nativeAccount(owner, reserve) {
  const d = new Uint8Array(ACCOUNT_SIZE);
  d.set(unbs58(NATIVE_MINT), 0);
  d.set(unbs58(owner), 32);
  d[108] = 1; // initialized
  d.set(le32(1), 109); // is_native: Some(reserve)
  d.set(le64(reserve), 113);
  return d;
}

const balanceOf = (chain, account) => {
  const a = chain.live(unbs58(account));
  return (a && parseTokenAccount(a.data)?.amount) ?? 0n;
};

/** feeOf is a mint's current transfer fee as {bps, max}, or null. */
function feeOf(chain, mint) {
  const a = chain.live(unbs58(mint));
  const f = a && activeTransferFee(parseMint(a.data), chain.epochInfo('processed').epoch);
  return f && f.transferFeeBasisPoints ? { bps: f.transferFeeBasisPoints, max: f.maximumFee } : null;
}

/**
 * seedPools seeds the configs, the fee receiver, the pools and the LP deposits. s: {chain,
 * keypairs, mints (by symbol), send(payer, instructions, signers) -> signature, rent(size), units}.
 * It returns {ammConfigs, pools, holdings} as the start line prints them (u64 figures as strings).
 */
export function seedPools({ chain, keypairs, mints, send, rent, units }) {
  const authority = keypairs.authority;
  const creator = keypairs['pool-creator'];
  const provider = keypairs['lp-provider'];

  // The configs: written as state, laid out as create_amm_config writes them, at their addresses.
  const ammConfigs = AMM_CONFIGS.map((cfg) => {
    const [address, bump] = ammConfigAddress(cfg.index);
    chain.setAccount(address, { lamports: rent(AMM_CONFIG_SIZE), data: ammConfigData(cfg, bump), owner: CPMM_PROGRAM });
    return { address, ...cfg };
  });
  // The pool creation fee receiver: a wrapped SOL account owned by Raydium's admin, as on mainnet.
  chain.setAccount(CREATE_POOL_FEE_RECEIVER, { lamports: rent(ACCOUNT_SIZE), data: nativeAccount(RAYDIUM_ADMIN, rent(ACCOUNT_SIZE)), owner: TOKEN_PROGRAM });

  // The pools' addresses and amounts, token 0 the mint with the lower key (as CPMM orders them).
  const pools = POOLS.map((def) => {
    const cfg = ammConfigs.find((c) => c.index === def.config);
    let [a, b] = [mints[def.base], mints[def.quote]];
    let [amountA, amountB] = [units(def.baseAmount, a.decimals), units(def.quoteAmount, b.decimals)];
    if (Buffer.compare(unbs58(a.address), unbs58(b.address)) > 0) [a, b, amountA, amountB] = [b, a, amountB, amountA];
    const addr = poolAddresses(cfg.address, a.address, b.address);
    const token = (m, vault, net) => ({ symbol: m.symbol, mint: m.address, program: m.program, decimals: m.decimals, vault, send: grossUp(feeOf(chain, m.address), net) });
    return {
      name: def.name, address: addr.pool, ammConfig: cfg.address, cfg, lpMint: addr.lpMint, observation: addr.observation,
      token0: token(a, addr.vault0, amountA), token1: token(b, addr.vault1, amountB),
    };
  });

  // Fund the creator with what the pools take: minted by the authority, SOL wrapped by itself.
  const need = {};
  for (const p of pools) for (const t of [p.token0, p.token1]) need[t.symbol] = (need[t.symbol] ?? 0n) + t.send;
  const fund = (owner, symbol, amount) => {
    const m = mints[symbol];
    const ata = associatedTokenAddress(owner.address, m.address, m.program);
    if (m.address === NATIVE_MINT) {
      send(owner, [ixs.createAssociatedTokenAccountIdempotent(owner.publicKey, ata, owner.publicKey, m.address, m.program), ixs.transferSol(owner.publicKey, ata, amount), ixs.syncNative(ata)], [owner]);
    } else {
      send(authority, [ixs.createAssociatedTokenAccountIdempotent(authority.publicKey, ata, owner.publicKey, m.address, m.program), ixs.mintTo(m.program, m.address, ata, authority.publicKey, amount)], [authority]);
    }
    return ata;
  };
  const accounts = new Map(); // "owner/symbol" -> token account, in creation order
  for (const [symbol, amount] of Object.entries(need)) accounts.set(`pool-creator/${symbol}`, fund(creator, symbol, amount));

  // Create each pool through the program's initialize.
  for (const p of pools) {
    const lp = associatedTokenAddress(creator.address, p.lpMint, TOKEN_PROGRAM);
    const own = (t) => associatedTokenAddress(creator.address, t.mint, t.program);
    p.signature = send(creator, [cuLimit(400_000), cpmmIxs.initialize(creator.publicKey, p, own(p.token0), own(p.token1), lp, p.token0.send, p.token1.send)], [creator]);
    accounts.set(`pool-creator/${p.name} LP`, lp);
  }

  // lp-provider's deposits, through the program's deposit.
  for (const [symbol, whole] of PROVIDER_FUNDS) accounts.set(`lp-provider/${symbol}`, fund(provider, symbol, units(whole, mints[symbol].decimals)));
  for (const [name, percent] of DEPOSITS) {
    const p = pools.find((x) => x.name === name);
    const lp = associatedTokenAddress(provider.address, p.lpMint, TOKEN_PROGRAM);
    const [a0, a1] = [p.token0, p.token1].map((t) => associatedTokenAddress(provider.address, t.mint, t.program));
    const lpAmount = (poolState(chain.live(unbs58(p.address)).data).lpSupply * percent) / 100n;
    send(provider, [
      ixs.createAssociatedTokenAccountIdempotent(provider.publicKey, lp, provider.publicKey, p.lpMint, TOKEN_PROGRAM),
      cpmmIxs.deposit(provider.publicKey, p, lp, a0, a1, lpAmount, balanceOf(chain, a0), balanceOf(chain, a1)),
    ], [provider]);
    accounts.set(`lp-provider/${name} LP`, lp);
  }

  // What the chain holds now: the pools' figures and every token account the pools added.
  const holdings = [];
  const row = (owner, address, symbol, mint, account, associated, extra = {}) =>
    holdings.push({ owner, address, symbol, mint, account, associated, amount: balanceOf(chain, account).toString(), ...extra });
  for (const [key, account] of accounts) {
    const label = key.slice(0, key.indexOf('/'));
    const symbol = key.slice(label.length + 1);
    const pool = pools.find((p) => symbol === `${p.name} LP`);
    if (pool) row(label, keypairs[label].address, symbol, pool.lpMint, account, true, { pool: pool.address });
    else row(label, keypairs[label].address, symbol, mints[symbol].address, account, true);
  }
  for (const p of pools) for (const t of [p.token0, p.token1]) row('cpmm-authority', AUTHORITY, t.symbol, t.mint, t.vault, false, { pool: p.address });
  row('raydium-admin', RAYDIUM_ADMIN, 'WSOL', NATIVE_MINT, CREATE_POOL_FEE_RECEIVER, false);

  const out = pools.map((p) => {
    const st = poolState(chain.live(unbs58(p.address)).data);
    const token = (t) => ({ symbol: t.symbol, mint: t.mint, program: t.program, decimals: t.decimals, vault: t.vault, reserve: balanceOf(chain, t.vault).toString() });
    return {
      name: p.name,
      address: p.address,
      program: CPMM_PROGRAM,
      ammConfig: p.ammConfig,
      ammConfigIndex: p.cfg.index,
      tradeFeeRate: Number(p.cfg.tradeFeeRate),
      protocolFeeRate: Number(p.cfg.protocolFeeRate),
      fundFeeRate: Number(p.cfg.fundFeeRate),
      creatorFeeRate: Number(p.cfg.creatorFeeRate),
      token0: token(p.token0),
      token1: token(p.token1),
      lpMint: p.lpMint,
      lpDecimals: LP_DECIMALS,
      lpSupply: st.lpSupply.toString(),
      lockedLp: LOCKED_LP.toString(),
      observation: p.observation,
      authority: AUTHORITY,
      creator: creator.address,
      creatorName: 'pool-creator',
      openTime: Number(st.openTime),
      signature: p.signature,
    };
  });
  const configs = ammConfigs.map((c) => ({
    address: c.address, index: c.index, tradeFeeRate: Number(c.tradeFeeRate), protocolFeeRate: Number(c.protocolFeeRate),
    fundFeeRate: Number(c.fundFeeRate), creatorFeeRate: Number(c.creatorFeeRate), createPoolFee: c.createPoolFee.toString(),
    protocolOwner: c.protocolOwner, fundOwner: c.fundOwner,
  }));
  return { ammConfigs: configs, pools: out, holdings, createPoolFeeReceiver: CREATE_POOL_FEE_RECEIVER };
}

/**
 * poolTrader returns swap(): one swap by a trader through the next pool (round robin), with
 * swap_base_input about two times in three and swap_base_output otherwise, in the direction that
 * pulls the pool's price back towards its seeded price more often than not (so prices wander
 * around the seeded ones), sized 0.05 %..0.5 % of the reserve and at most half of what the trader
 * holds; SOL is wrapped into the trader's wrapped SOL account for the swap and unwrapped after it.
 * Its choices come from a PRNG seeded from the seed string; the amounts follow the chain.
 */
export function poolTrader(chain, seeded, seedString) {
  const traders = Object.keys(seeded.keypairs).filter((l) => l.startsWith('trader-')).map((l) => seeded.keypairs[l]);
  const pools = seeded.pools;
  const target = pools.map((p) => Number(p.token1.reserve) / Number(p.token0.reserve));
  const fees = new Map();
  const fee = (mint) => {
    if (!fees.has(mint)) fees.set(mint, feeOf(chain, mint));
    return fees.get(mint);
  };
  let state = new DataView(sha256(Buffer.from(`${seedString}/swaps`)).buffer).getUint32(0, true);
  const rand = (n) => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    state = (state ^ (state >>> 13)) >>> 0;
    return state % n;
  };
  const SOL_KEPT = 2_000_000_000n; // lamports a trader keeps for fees and rent
  // spendable is what a trader may put into one swap of a token: half of its balance.
  const spendable = (trader, t) => {
    if (t.mint === NATIVE_MINT) {
      const lamports = chain.live(trader.publicKey)?.lamports ?? 0n;
      return lamports > SOL_KEPT ? (lamports - SOL_KEPT) / 2n : 0n;
    }
    return balanceOf(chain, associatedTokenAddress(trader.address, t.mint, t.program)) / 2n;
  };
  let n = 0;
  return function swap() {
    const i = n % pools.length;
    const p = pools[i];
    n++;
    const st = poolState(chain.live(unbs58(p.address)).data);
    const r0 = balanceOf(chain, p.token0.vault) - st.owed0;
    const r1 = balanceOf(chain, p.token1.vault) - st.owed1;
    const lean = Math.log(Number(r1) / Number(r0) / target[i]); // > 0: token 0 dearer than seeded
    const pSell0 = Math.min(0.9, Math.max(0.1, 0.5 + 4 * lean));
    const first = rand(1000) < pSell0 * 1000;
    const baseInput = rand(3) !== 0;
    const permille = BigInt(5 + rand(46)); // 0.05 % .. 0.5 % of the reserve, in tenths of a permille
    const start = rand(traders.length);
    const cp = priority(n);
    const rate = BigInt(p.tradeFeeRate);
    for (const zeroForOne of [first, !first]) {
      const [tin, tout, x, y] = zeroForOne ? [p.token0, p.token1, r0, r1] : [p.token1, p.token0, r1, r0];
      for (let k = 0; k < traders.length; k++) {
        const trader = traders[(start + k) % traders.length];
        const cap = spendable(trader, tin);
        let a, b; // instruction arguments
        if (baseInput) {
          const amountIn = (x * permille) / 10_000n < cap ? (x * permille) / 10_000n : cap;
          const out = amountIn > 0n ? quoteBaseInput(x, y, rate, amountIn, fee(tin.mint), fee(tout.mint)) : 0n;
          if (out <= 0n || amountIn < x / 20_000n) continue; // below 0.005 % of the reserve: not worth a swap
          [a, b] = [amountIn, out - out / 100n]; // 1 % slippage allowed
        } else {
          let want = (y * permille) / 10_000n;
          let cost = quoteBaseOutput(x, y, rate, want, fee(tin.mint), fee(tout.mint));
          if (cost !== null && cost > cap) {
            want = (want * cap * 9n) / (cost * 10n);
            cost = want > 0n ? quoteBaseOutput(x, y, rate, want, fee(tin.mint), fee(tout.mint)) : null;
          }
          if (cost === null || want <= 0n || cost > cap || cost < x / 20_000n) continue;
          [a, b] = [cost + cost / 100n + 1n, want];
        }
        const inAcc = associatedTokenAddress(trader.address, tin.mint, tin.program);
        const outAcc = associatedTokenAddress(trader.address, tout.mint, tout.program);
        const wsol = tin.mint === NATIVE_MINT ? inAcc : tout.mint === NATIVE_MINT ? outAcc : null;
        const instructions = [cuLimit(120_000)];
        if (cp) instructions.push(cuPrice(cp));
        instructions.push(ixs.createAssociatedTokenAccountIdempotent(trader.publicKey, outAcc, trader.publicKey, tout.mint, tout.program));
        if (tin.mint === NATIVE_MINT) {
          instructions.push(ixs.createAssociatedTokenAccountIdempotent(trader.publicKey, inAcc, trader.publicKey, tin.mint, tin.program));
          instructions.push(ixs.transferSol(trader.publicKey, inAcc, a), ixs.syncNative(inAcc));
        }
        instructions.push(cpmmIxs.swap(trader.publicKey, p, zeroForOne, baseInput, inAcc, outAcc, a, b));
        if (wsol) instructions.push(closeAccount(wsol, trader.address, trader.address));
        const { message, signers } = compileLegacy(trader.publicKey, instructions, unbs58(chain.head.blockhash));
        const wire = signTransaction(message, signers, [trader]);
        return chain.submit(wire, parseTransaction(wire));
      }
    }
    return null; // no trader holds enough of either token
  };
}

// priority is the compute unit price of the n-th swap: every other one pays one.
const priority = (n) => (n % 2 === 0 ? BigInt(1000 + ((n * 7919) % 9000)) : 0n);
