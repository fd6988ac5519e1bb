// The seeded market: deterministic keypairs, mints (SPL Token, wrapped SOL, one Token-2022 mint
// with a transfer fee and in-mint metadata), holders with distinct balances, Metaplex-style
// metadata accounts, and a background activity of transfers among the traders.
//
// Every address derives from the seed string: a keypair's ed25519 seed is SHA-256("<seed>/<label>").
// Labels: faucet, identity, authority, holder-0..holder-7, trader-0..trader-2, pool-creator,
// lp-provider, aux/holder-0/USDC, mint/<SYMBOL>. These are test keypairs: their secret keys are
// printed and public. The CPMM pools on top of the mints are seeded by pools.mjs.

import { POOL_LABELS, poolTrader, seedPools } from './pools.mjs';
import { Keypair, compileLegacy, concat, parseTransaction, sha256, signTransaction, unbs58 } from './codec.mjs';
import {
  ACCOUNT_SIZE, COMPUTE_BUDGET_PROGRAM, METAPLEX_METADATA_SIZE, METAPLEX_PROGRAM, MINT_SIZE, NATIVE_MINT, SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM, TOKEN_PROGRAM, associatedTokenAddress, ixs, le32, le64, metaplexMetadata, metaplexMetadataAddress,
  parseMint, parseTokenAccount, tokenMetadataSize,
} from './token.mjs';

const SOL = 1_000_000_000n;

/** units converts a decimal string of whole tokens to base units (exact). */
export function units(whole, decimals) {
  const [i, f = ''] = String(whole).split('.');
  if (f.length > decimals) throw new Error(`${whole} has more than ${decimals} decimals`);
  return BigInt(i) * 10n ** BigInt(decimals) + BigInt((f + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

// The mints. metadata: 'metaplex' (a Metadata account at the Token Metadata PDA), 'token-2022'
// (MetadataPointer to the mint itself plus the TokenMetadata extension) or null (wrapped SOL).
const MINTS = [
  { symbol: 'USDC', name: 'USD Coin (localnet)', decimals: 6, program: TOKEN_PROGRAM, metadata: 'metaplex', freeze: true },
  { symbol: 'WSOL', name: 'Wrapped SOL', decimals: 9, program: TOKEN_PROGRAM, native: true, metadata: null },
  { symbol: 'AUR', name: 'Aurum (localnet)', decimals: 9, program: TOKEN_PROGRAM, metadata: 'metaplex' },
  { symbol: 'NIM', name: 'Nimbus (localnet)', decimals: 5, program: TOKEN_PROGRAM, metadata: 'metaplex' },
  { symbol: 'QRTZ', name: 'Quartz (localnet)', decimals: 2, program: TOKEN_PROGRAM, metadata: 'metaplex' },
  {
    symbol: 'EMB', name: 'Ember (localnet)', decimals: 6, program: TOKEN_2022_PROGRAM, metadata: 'token-2022',
    transferFee: { basisPoints: 100, maximumFee: '10' }, // 1%, at most 10 EMB per transfer
  },
];

// Holdings in whole tokens: [owner label, amount]. Each owner's amount of a mint is distinct.
// The traders' AUR, NIM, QRTZ and trader-0's EMB are for their swaps through the pools.
const HOLDINGS = {
  USDC: [['holder-0', '1250000.5'], ['holder-1', '250000'], ['holder-2', '75000.123456'], ['holder-3', '12500'], ['holder-4', '3000.75'], ['holder-5', '500'], ['holder-6', '42.42'], ['trader-0', '100000'], ['trader-1', '50000'], ['trader-2', '25000']],
  WSOL: [['holder-0', '5'], ['holder-2', '2.5'], ['holder-4', '1.25']],
  AUR: [['holder-0', '400000'], ['holder-1', '150000'], ['holder-3', '90000.5'], ['holder-5', '10000'], ['trader-0', '5000'], ['trader-1', '20000'], ['trader-2', '15000']],
  NIM: [['holder-1', '2000000'], ['holder-2', '750000.12345'], ['holder-6', '1000'], ['holder-7', '99'], ['trader-0', '400000'], ['trader-1', '250000'], ['trader-2', '150000']],
  QRTZ: [['holder-0', '5000000'], ['holder-4', '1000000.5'], ['holder-7', '25.75'], ['trader-0', '800000'], ['trader-1', '500000.25'], ['trader-2', '300000']],
  EMB: [['holder-0', '1000000'], ['holder-3', '250000'], ['holder-5', '40000'], ['holder-6', '1234.567891'], ['trader-1', '20000'], ['trader-2', '20000'], ['trader-0', '5000']],
};
// holder-0 also holds a second, non-associated USDC account: holders are owners, not token accounts.
const AUX_USDC = ['holder-0', '1000'];

const HOLDERS = 8;
const TRADERS = 3;

/** solBalance is each wallet's genesis balance: distinct, not round (lamports). */
const genesisLamports = (label) => {
  if (label === 'faucet') return 500_000_000n * SOL;
  if (label === 'authority') return 1_000n * SOL;
  if (label in POOL_LABELS) return POOL_LABELS[label];
  const [kind, n] = label.split('-');
  const i = BigInt(n);
  return kind === 'holder' ? (i + 1n) * 10n * SOL + (i + 1n) * 1_234_567n : 100n * SOL + i * 7_654_321n;
};

/**
 * seed builds the market at genesis and returns what the start line prints:
 * { keypairs: {label: Keypair}, mints: [...], holdings: [...], wallets: [...], ammConfigs: [...],
 * pools: [...], createPoolFeeReceiver }.
 */
export function seed(chain, seedString) {
  const kp = (label) => Keypair.fromLabel(`${seedString}/${label}`);
  const labels = ['faucet', 'authority', ...Array.from({ length: HOLDERS }, (_, i) => `holder-${i}`), ...Array.from({ length: TRADERS }, (_, i) => `trader-${i}`), ...Object.keys(POOL_LABELS)];
  const keypairs = Object.fromEntries(labels.map((l) => [l, kp(l)]));
  const authority = keypairs.authority;
  for (const l of labels) chain.setAccount(keypairs[l].address, { lamports: genesisLamports(l), data: new Uint8Array(0), owner: SYSTEM_PROGRAM });

  const rent = (n) => chain.inner.minimumBalanceForRentExemption(BigInt(n));
  const send = (payer, instructions, signers) => {
    const { message, signers: required } = compileLegacy(payer.publicKey, instructions, unbs58(chain.head.blockhash));
    const wire = signTransaction(message, required, signers);
    try {
      return chain.submit(wire, parseTransaction(wire));
    } catch (e) {
      throw new Error(`seeding: ${e.message} ${JSON.stringify(e.data?.logs ?? [])}`, { cause: e });
    }
  };

  const mints = [];
  for (const m of MINTS) {
    const out = { symbol: m.symbol, name: m.name, decimals: m.decimals, program: m.program, mintAuthority: authority.address, freezeAuthority: m.freeze ? authority.address : null };
    if (m.native) {
      Object.assign(out, { address: NATIVE_MINT, mintAuthority: null, freezeAuthority: null, metadata: null });
      mints.push(out);
      continue;
    }
    const mk = kp(`mint/${m.symbol}`);
    out.address = mk.address;
    const freeze = m.freeze ? authority.address : null;
    if (m.program === TOKEN_PROGRAM) {
      send(authority, [ixs.createAccount(authority.publicKey, mk.publicKey, rent(MINT_SIZE), MINT_SIZE, TOKEN_PROGRAM), ixs.initializeMint2(TOKEN_PROGRAM, mk.publicKey, m.decimals, authority.address, freeze)], [authority, mk]);
      const md = metaplexMetadataAddress(mk.address);
      chain.setAccount(md, { lamports: rent(METAPLEX_METADATA_SIZE), data: metaplexMetadata(authority.address, mk.address, m.name, m.symbol, `https://localnet.invalid/${m.symbol.toLowerCase()}.json`), owner: METAPLEX_PROGRAM });
      Object.assign(out, { metadata: 'metaplex', metadataAddress: md });
    } else {
      const uri = `https://localnet.invalid/${m.symbol.toLowerCase()}.json`;
      const base = ACCOUNT_SIZE + 1 + (4 + 108) + (4 + 64); // mint, padding, account type, TransferFeeConfig, MetadataPointer
      const full = base + 4 + tokenMetadataSize(m.name, m.symbol, uri);
      const maxFee = units(m.transferFee.maximumFee, m.decimals);
      send(
        authority,
        [
          ixs.createAccount(authority.publicKey, mk.publicKey, rent(full), base, TOKEN_2022_PROGRAM),
          ixs.initializeTransferFeeConfig(mk.publicKey, authority.address, authority.address, m.transferFee.basisPoints, maxFee),
          ixs.initializeMetadataPointer(mk.publicKey, authority.address, mk.address),
          ixs.initializeMint2(TOKEN_2022_PROGRAM, mk.publicKey, m.decimals, authority.address, freeze),
          ixs.initializeTokenMetadata(mk.publicKey, authority.address, authority.publicKey, m.name, m.symbol, uri),
        ],
        [authority, mk],
      );
      Object.assign(out, { metadata: 'token-2022', metadataAddress: mk.address, transferFee: { basisPoints: m.transferFee.basisPoints, maximumFee: maxFee.toString() } });
    }
    mints.push(out);
  }

  const bySymbol = Object.fromEntries(mints.map((m) => [m.symbol, m]));
  const holdings = [];
  for (const [symbol, list] of Object.entries(HOLDINGS)) {
    const m = bySymbol[symbol];
    for (const [label, whole] of list) {
      const owner = keypairs[label];
      const amount = units(whole, m.decimals);
      const ata = associatedTokenAddress(owner.address, m.address, m.program);
      const create = ixs.createAssociatedTokenAccountIdempotent(owner.publicKey, ata, owner.publicKey, m.address, m.program);
      if (m.address === NATIVE_MINT) {
        send(owner, [create, ixs.transferSol(owner.publicKey, ata, amount), ixs.syncNative(ata)], [owner]);
      } else {
        send(authority, [ixs.createAssociatedTokenAccountIdempotent(authority.publicKey, ata, owner.publicKey, m.address, m.program), ixs.mintTo(m.program, m.address, ata, authority.publicKey, amount)], [authority]);
      }
      holdings.push({ owner: label, address: owner.address, symbol, mint: m.address, account: ata, associated: true, amount: amount.toString() });
    }
  }
  {
    const [label, whole] = AUX_USDC;
    const m = bySymbol.USDC;
    const acct = kp(`aux/${label}/USDC`);
    const owner = keypairs[label];
    const amount = units(whole, m.decimals);
    send(
      authority,
      [
        ixs.createAccount(authority.publicKey, acct.publicKey, rent(ACCOUNT_SIZE), ACCOUNT_SIZE, TOKEN_PROGRAM),
        { programId: unbs58(TOKEN_PROGRAM), keys: [{ pubkey: acct.publicKey, isSigner: false, isWritable: true }, { pubkey: unbs58(m.address), isSigner: false, isWritable: false }], data: concat(Uint8Array.of(18), owner.publicKey) },
        ixs.mintTo(TOKEN_PROGRAM, m.address, acct.publicKey, authority.publicKey, amount),
      ],
      [authority, acct],
    );
    holdings.push({ owner: label, address: owner.address, symbol: 'USDC', mint: m.address, account: acct.address, associated: false, amount: amount.toString() });
  }

  // The CPMM pools, their LP and the token accounts they add.
  const cpmm = seedPools({ chain, keypairs, mints: bySymbol, send, rent, units });
  holdings.push(...cpmm.holdings);

  for (const m of mints) {
    if (m.address === NATIVE_MINT) {
      m.supply = holdings.filter((h) => h.symbol === m.symbol).reduce((s, h) => s + BigInt(h.amount), 0n).toString();
      m.supplyNote = 'wrapped SOL has no fixed supply: this is what the holdings wrap';
    } else {
      // The mint's own supply: EMB's includes the transfer fees withheld in the accounts that received it.
      m.supply = parseMint(chain.live(unbs58(m.address)).data).supply.toString();
    }
  }
  // Check the seeding against the chain: every holding is there with its exact amount.
  for (const h of holdings) {
    const a = chain.live(unbs58(h.account));
    const t = a && parseTokenAccount(a.data);
    if (!t || t.amount.toString() !== h.amount || t.owner !== h.address) throw new Error(`seeding: ${h.symbol} account ${h.account} of ${h.owner} does not hold ${h.amount}`);
  }

  const wallets = labels.map((l) => ({ name: l, address: keypairs[l].address, secretKey: keypairs[l].secretKeyB58, lamports: chain.live(keypairs[l].publicKey).lamports }));
  return { keypairs, mints, holdings, wallets, ammConfigs: cpmm.ammConfigs, pools: cpmm.pools, createPoolFeeReceiver: cpmm.createPoolFeeReceiver };
}

/**
 * startActivity sends, every everyMs, a transfer among the traders (SOL, USDC or EMB (Token-2022,
 * fee withheld), alternating with and without a priority fee, each with a memo) and then a swap by
 * a trader through the next CPMM pool (pools.mjs, poolTrader). Deterministic in its choices (PRNGs
 * seeded from the seed string); the timing follows the clock. After count periods it stops (0: never).
 */
export function startActivity(chain, seeded, seedString, everyMs, count, log) {
  const traders = Array.from({ length: TRADERS }, (_, i) => seeded.keypairs[`trader-${i}`]);
  const mints = Object.fromEntries(seeded.mints.map((m) => [m.symbol, m]));
  let state = new DataView(sha256(Buffer.from(`${seedString}/activity`)).buffer).getUint32(0, true);
  const rand = (n) => {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    state = (state ^ (state >>> 13)) >>> 0;
    return state % n;
  };
  let n = 0;
  const swap = poolTrader(chain, seeded, seedString);
  let swaps = 0;
  const tick = () => {
    if (count > 0 && swaps >= count) {
      clearInterval(timer);
      return;
    }
    try {
      transfer();
    } catch (e) {
      log(`activity #${n}: ${e.message}`);
    }
    swaps++;
    try {
      swap();
    } catch (e) {
      log(`activity swap #${swaps}: ${e.message} ${JSON.stringify(e.data?.logs ?? [])}`);
    }
  };
  const transfer = () => {
    n++;
    const from = traders[rand(TRADERS)];
    const to = traders.filter((t) => t !== from)[rand(TRADERS - 1)];
    const kind = ['SOL', 'USDC', 'EMB'][rand(3)];
    const instructions = [];
    if (n % 2 === 0) {
      instructions.push({ programId: unbs58(COMPUTE_BUDGET_PROGRAM), keys: [], data: concat(Uint8Array.of(2), le32(200_000)) });
      instructions.push({ programId: unbs58(COMPUTE_BUDGET_PROGRAM), keys: [], data: concat(Uint8Array.of(3), le64(BigInt(1000 + rand(9000)))) });
    }
    if (kind === 'SOL') {
      instructions.push(ixs.transferSol(from.publicKey, to.publicKey, BigInt(1 + rand(1000)) * 1_000_000n));
    } else {
      const m = mints[kind];
      const src = associatedTokenAddress(from.address, m.address, m.program);
      const dst = associatedTokenAddress(to.address, m.address, m.program);
      instructions.push(ixs.createAssociatedTokenAccountIdempotent(from.publicKey, dst, to.publicKey, m.address, m.program));
      instructions.push(ixs.transferChecked(m.program, src, m.address, dst, from.publicKey, BigInt(1 + rand(100)) * 10n ** BigInt(m.decimals), m.decimals));
    }
    instructions.push(ixs.memo(`localnet activity #${n}`, from.publicKey));
    const { message, signers } = compileLegacy(from.publicKey, instructions, unbs58(chain.head.blockhash));
    const wire = signTransaction(message, signers, [from]);
    chain.submit(wire, parseTransaction(wire));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
