// SPL Token and Token-2022 state: the account layouts, the extension TLVs, the jsonParsed shapes
// Solana's account decoder returns, and encoders for the instructions the seeding sends.

import { isOffCurveAddress } from '@solana/kit';
import { bs58, concat, equalBytes, pubkey, sha256 } from './codec.mjs';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
export const MEMO_V1_PROGRAM = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const ALT_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
export const METAPLEX_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';

export const MINT_SIZE = 82;
export const ACCOUNT_SIZE = 165;
export const MULTISIG_SIZE = 355;

export const isTokenProgram = (owner) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;
export const programName = (owner) => (owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022');

const u64 = (b, o) => new DataView(b.buffer, b.byteOffset + o, 8).getBigUint64(0, true);
const u16 = (b, o) => b[o] | (b[o + 1] << 8);
const u32 = (b, o) => new DataView(b.buffer, b.byteOffset + o, 4).getUint32(0, true);
const coptionKey = (b, o) => (u32(b, o) === 1 ? bs58(b.subarray(o + 4, o + 36)) : null);
const nonZeroKey = (b, o) => (b.subarray(o, o + 32).some((x) => x !== 0) ? bs58(b.subarray(o, o + 32)) : null);

export const le64 = (v) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(v), true);
  return out;
};
export const le32 = (v) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v, true);
  return out;
};
export const le16 = (v) => Uint8Array.of(v & 0xff, (v >> 8) & 0xff);

// ---- amounts ----

/** uiAmountString is the exact decimal form with trailing zeros trimmed, as Solana writes it. */
export function uiAmountString(amount, decimals) {
  const s = amount.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return s;
  const int = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** tokenAmount is Solana's UiTokenAmount. */
export const tokenAmount = (amount, decimals) => ({
  amount: amount.toString(),
  decimals,
  uiAmount: Number(uiAmountString(amount, decimals)),
  uiAmountString: uiAmountString(amount, decimals),
});

// ---- state ----

/** accountType tells a token program's account apart: 'mint', 'account', 'multisig' or null. */
export function accountType(data) {
  if (data.length === MINT_SIZE) return 'mint';
  if (data.length === ACCOUNT_SIZE) return 'account';
  if (data.length === MULTISIG_SIZE) return 'multisig';
  if (data.length > ACCOUNT_SIZE) {
    if (data[ACCOUNT_SIZE] === 1) return 'mint';
    if (data[ACCOUNT_SIZE] === 2) return 'account';
  }
  return null;
}

/** parseMint decodes a mint (SPL Token or Token-2022), or returns null when data is not an initialized mint. */
export function parseMint(data) {
  if (accountType(data) !== 'mint' || data[45] !== 1) return null;
  return {
    mintAuthority: coptionKey(data, 0),
    supply: u64(data, 36),
    decimals: data[44],
    freezeAuthority: coptionKey(data, 46),
    extensions: data.length > ACCOUNT_SIZE ? parseTLV(data.subarray(ACCOUNT_SIZE + 1)) : [],
  };
}

const STATES = ['uninitialized', 'initialized', 'frozen'];

/** parseTokenAccount decodes a token account, or returns null when data is not an initialized token account. */
export function parseTokenAccount(data) {
  if (accountType(data) !== 'account' || data[108] === 0 || data[108] > 2) return null;
  const isNative = u32(data, 109) === 1;
  return {
    mint: bs58(data.subarray(0, 32)),
    owner: bs58(data.subarray(32, 64)),
    amount: u64(data, 64),
    delegate: coptionKey(data, 72),
    state: STATES[data[108]],
    isNative,
    rentExemptReserve: isNative ? u64(data, 113) : null,
    delegatedAmount: u64(data, 121),
    closeAuthority: coptionKey(data, 129),
    extensions: data.length > ACCOUNT_SIZE ? parseTLV(data.subarray(ACCOUNT_SIZE + 1)) : [],
  };
}

// Extension types of Token-2022, by their u16 tag.
const EXT = {
  1: 'transferFeeConfig', 2: 'transferFeeAmount', 3: 'mintCloseAuthority', 4: 'confidentialTransferMint',
  5: 'confidentialTransferAccount', 6: 'defaultAccountState', 7: 'immutableOwner', 8: 'memoTransfer',
  9: 'nonTransferable', 10: 'interestBearingConfig', 11: 'cpiGuard', 12: 'permanentDelegate',
  13: 'nonTransferableAccount', 14: 'transferHook', 15: 'transferHookAccount',
  16: 'confidentialTransferFeeConfig', 17: 'confidentialTransferFeeAmount', 18: 'metadataPointer',
  19: 'tokenMetadata', 20: 'groupPointer', 21: 'tokenGroup', 22: 'groupMemberPointer', 23: 'tokenGroupMember',
  24: 'confidentialMintBurn', 25: 'scaledUiAmountConfig', 26: 'pausableConfig', 27: 'pausableAccount',
};

const transferFee = (b, o) => ({ epoch: u64(b, o), maximumFee: u64(b, o + 8), transferFeeBasisPoints: u16(b, o + 16) });

function borshString(b, o) {
  const n = u32(b, o);
  return [Buffer.from(b.subarray(o + 4, o + 4 + n)).toString('utf8'), o + 4 + n];
}

/** parseTokenMetadata decodes the token-metadata interface's state (Token-2022's TokenMetadata extension). */
export function parseTokenMetadata(v) {
  let o = 64;
  const out = { updateAuthority: nonZeroKey(v, 0), mint: bs58(v.subarray(32, 64)) };
  [out.name, o] = borshString(v, o);
  [out.symbol, o] = borshString(v, o);
  [out.uri, o] = borshString(v, o);
  const n = u32(v, o);
  o += 4;
  out.additionalMetadata = [];
  for (let i = 0; i < n; i++) {
    let k, val;
    [k, o] = borshString(v, o);
    [val, o] = borshString(v, o);
    out.additionalMetadata.push([k, val]);
  }
  return out;
}

function parseExtension(type, v) {
  switch (type) {
    case 1:
      return {
        transferFeeConfigAuthority: nonZeroKey(v, 0),
        withdrawWithheldAuthority: nonZeroKey(v, 32),
        withheldAmount: u64(v, 64),
        olderTransferFee: transferFee(v, 72),
        newerTransferFee: transferFee(v, 90),
      };
    case 2:
      return { withheldAmount: u64(v, 0) };
    case 3:
      return { closeAuthority: nonZeroKey(v, 0) };
    case 6:
      return { accountState: STATES[v[0]] };
    case 7:
    case 9:
    case 13:
      return undefined;
    case 8:
      return { requireIncomingTransferMemos: v[0] === 1 };
    case 11:
      return { lockCpi: v[0] === 1 };
    case 12:
      return { delegate: nonZeroKey(v, 0) };
    case 14:
      return { authority: nonZeroKey(v, 0), programId: nonZeroKey(v, 32) };
    case 15:
      return { transferring: v[0] === 1 };
    case 18:
      return { authority: nonZeroKey(v, 0), metadataAddress: nonZeroKey(v, 32) };
    case 19:
      return parseTokenMetadata(v);
    case 20:
      return { authority: nonZeroKey(v, 0), groupAddress: nonZeroKey(v, 32) };
    case 22:
      return { authority: nonZeroKey(v, 0), memberAddress: nonZeroKey(v, 32) };
    default:
      throw new Error('unparsed');
  }
}

/** parseTLV reads Token-2022's extension entries: [{type, name, state, raw}]. */
export function parseTLV(b) {
  const out = [];
  let o = 0;
  while (o + 4 <= b.length) {
    const type = u16(b, o);
    const len = u16(b, o + 2);
    if (type === 0) break;
    const raw = b.subarray(o + 4, o + 4 + len);
    let state;
    let name = EXT[type];
    try {
      state = parseExtension(type, raw);
    } catch {
      name = 'unparseableExtension';
      state = undefined;
    }
    out.push({ type, name: name ?? 'unparseableExtension', state, raw });
    o += 4 + len;
  }
  return out;
}

const jsonExtensions = (exts) =>
  exts.map((e) => (e.state === undefined ? { extension: e.name } : { extension: e.name, state: e.state }));

/** activeTransferFee is the transfer fee in force at epoch (Token-2022's rule: newer from its epoch on). */
export function activeTransferFee(mint, epoch) {
  const cfg = mint.extensions.find((e) => e.type === 1)?.state;
  if (!cfg) return null;
  return BigInt(epoch) >= cfg.newerTransferFee.epoch ? cfg.newerTransferFee : cfg.olderTransferFee;
}

/** transferFeeFor is the fee Token-2022 withholds on amount: ceil(amount*bps/10000), capped at maximumFee. */
export function transferFeeFor(fee, amount) {
  if (!fee || fee.transferFeeBasisPoints === 0 || amount === 0n) return 0n;
  const raw = (amount * BigInt(fee.transferFeeBasisPoints) + 9999n) / 10000n;
  return raw < fee.maximumFee ? raw : fee.maximumFee;
}

/**
 * parsedAccount is Solana's jsonParsed data for an account of a token program, or null when it
 * does not parse (the caller then falls back to base64, as Solana does). decimalsOf(mint) gives a
 * token account's decimals (null when its mint is missing: not parseable then).
 */
export function parsedAccount(owner, data, decimalsOf) {
  const program = programName(owner);
  const type = accountType(data);
  let parsed = null;
  if (type === 'mint') {
    const m = parseMint(data);
    if (!m) return null;
    const info = {
      decimals: m.decimals,
      freezeAuthority: m.freezeAuthority,
      isInitialized: true,
      mintAuthority: m.mintAuthority,
      supply: m.supply.toString(),
    };
    if (owner === TOKEN_2022_PROGRAM && m.extensions.length) info.extensions = jsonExtensions(m.extensions);
    parsed = { info, type: 'mint' };
  } else if (type === 'account') {
    const a = parseTokenAccount(data);
    if (!a) return null;
    const decimals = decimalsOf(a.mint);
    if (decimals == null) return null;
    const info = {
      isNative: a.isNative,
      mint: a.mint,
      owner: a.owner,
      state: a.state,
      tokenAmount: tokenAmount(a.amount, decimals),
    };
    if (a.delegate) {
      info.delegate = a.delegate;
      info.delegatedAmount = tokenAmount(a.delegatedAmount, decimals);
    }
    if (a.isNative) info.rentExemptReserve = tokenAmount(a.rentExemptReserve, 9);
    if (a.closeAuthority) info.closeAuthority = a.closeAuthority;
    if (owner === TOKEN_2022_PROGRAM && a.extensions.length) info.extensions = jsonExtensions(a.extensions);
    parsed = { info, type: 'account' };
  } else if (type === 'multisig') {
    if (data[2] !== 1) return null;
    const n = data[1];
    const signers = [];
    for (let i = 0; i < n; i++) signers.push(bs58(data.subarray(3 + 32 * i, 35 + 32 * i)));
    parsed = { info: { isInitialized: true, numRequiredSigners: data[0], numValidSigners: n, signers }, type: 'multisig' };
  } else return null;
  return { program, parsed, space: data.length };
}

// ---- PDAs ----

/** findProgramAddress is Solana's find_program_address: the first off-curve hash from bump 255 down. */
export function findProgramAddress(seeds, programId) {
  const program = pubkey(programId);
  for (let bump = 255; bump >= 0; bump--) {
    const h = sha256(...seeds, Uint8Array.of(bump), program, Buffer.from('ProgramDerivedAddress'));
    const addr = bs58(h);
    if (isOffCurveAddress(addr)) return [addr, bump];
  }
  throw new Error('no viable bump');
}

/** associatedTokenAddress is the owner's associated token account for mint under tokenProgram. */
export const associatedTokenAddress = (owner, mint, tokenProgram) =>
  findProgramAddress([pubkey(owner), pubkey(tokenProgram), pubkey(mint)], ATA_PROGRAM)[0];

// ---- instructions (for the seeding and the background activity) ----

const meta = (key, isSigner, isWritable) => ({ pubkey: typeof key === 'string' ? pubkey(key) : key, isSigner, isWritable });
const ix = (programId, keys, data) => ({ programId: pubkey(programId), keys, data });

export const ixs = {
  createAccount: (from, to, lamports, space, owner) =>
    ix(SYSTEM_PROGRAM, [meta(from, true, true), meta(to, true, true)], concat(le32(0), le64(lamports), le64(space), pubkey(owner))),
  transferSol: (from, to, lamports) => ix(SYSTEM_PROGRAM, [meta(from, true, true), meta(to, false, true)], concat(le32(2), le64(lamports))),
  initializeMint2: (program, mint, decimals, mintAuthority, freezeAuthority) =>
    ix(program, [meta(mint, false, true)], concat(Uint8Array.of(20, decimals), pubkey(mintAuthority), freezeAuthority ? concat(Uint8Array.of(1), pubkey(freezeAuthority)) : Uint8Array.of(0))),
  initializeTransferFeeConfig: (mint, configAuthority, withdrawAuthority, bps, maximumFee) =>
    ix(TOKEN_2022_PROGRAM, [meta(mint, false, true)], concat(Uint8Array.of(26, 0, 1), pubkey(configAuthority), Uint8Array.of(1), pubkey(withdrawAuthority), le16(bps), le64(maximumFee))),
  initializeMetadataPointer: (mint, authority, metadataAddress) =>
    ix(TOKEN_2022_PROGRAM, [meta(mint, false, true)], concat(Uint8Array.of(39, 0), pubkey(authority), pubkey(metadataAddress))),
  initializeTokenMetadata: (mint, updateAuthority, mintAuthority, name, symbol, uri) =>
    ix(
      TOKEN_2022_PROGRAM,
      [meta(mint, false, true), meta(updateAuthority, false, false), meta(mint, false, false), meta(mintAuthority, true, false)],
      concat(sha256(Buffer.from('spl_token_metadata_interface:initialize_account')).subarray(0, 8), borsh(name), borsh(symbol), borsh(uri)),
    ),
  createAssociatedTokenAccountIdempotent: (payer, ata, owner, mint, tokenProgram) =>
    ix(
      ATA_PROGRAM,
      [meta(payer, true, true), meta(ata, false, true), meta(owner, false, false), meta(mint, false, false), meta(SYSTEM_PROGRAM, false, false), meta(tokenProgram, false, false)],
      Uint8Array.of(1),
    ),
  mintTo: (program, mint, dest, authority, amount) =>
    ix(program, [meta(mint, false, true), meta(dest, false, true), meta(authority, true, false)], concat(Uint8Array.of(7), le64(amount))),
  transferChecked: (program, source, mint, dest, owner, amount, decimals) =>
    ix(program, [meta(source, false, true), meta(mint, false, false), meta(dest, false, true), meta(owner, true, false)], concat(Uint8Array.of(12), le64(amount), Uint8Array.of(decimals))),
  syncNative: (account) => ix(TOKEN_PROGRAM, [meta(account, false, true)], Uint8Array.of(17)),
  memo: (text, signer) => ix(MEMO_PROGRAM, signer ? [meta(signer, true, false)] : [], new Uint8Array(Buffer.from(text, 'utf8'))),
};

const borsh = (s) => {
  const b = Buffer.from(s, 'utf8');
  return concat(le32(b.length), new Uint8Array(b));
};

/** tokenMetadataSize is the TLV value size of a TokenMetadata without additional fields. */
export const tokenMetadataSize = (name, symbol, uri) =>
  64 + 12 + Buffer.byteLength(name) + Buffer.byteLength(symbol) + Buffer.byteLength(uri) + 4;

// ---- Metaplex token metadata (state only: the program does not run here) ----

const puffed = (s, n) => {
  const b = Buffer.alloc(n);
  b.write(s, 'utf8');
  return concat(le32(n), new Uint8Array(b));
};

/** METAPLEX_METADATA_SIZE is the Token Metadata program's fixed account size (MAX_METADATA_LEN). */
export const METAPLEX_METADATA_SIZE = 679;

/**
 * metaplexMetadata lays out a fungible token's Metadata account as Metaplex Token Metadata writes
 * it (key MetadataV1, strings padded to 32/10/200 bytes with NULs, no creators, token standard
 * Fungible), zero-padded to the program's fixed size.
 */
export function metaplexMetadata(updateAuthority, mint, name, symbol, uri) {
  const body = concat(
    Uint8Array.of(4),
    pubkey(updateAuthority),
    pubkey(mint),
    puffed(name, 32),
    puffed(symbol, 10),
    puffed(uri, 200),
    le16(0), // seller_fee_basis_points
    Uint8Array.of(0), // creators: None
    Uint8Array.of(0, 1), // primary_sale_happened, is_mutable
    Uint8Array.of(0), // edition_nonce: None
    Uint8Array.of(1, 2), // token_standard: Some(Fungible)
    Uint8Array.of(0, 0, 0, 0), // collection, uses, collection_details, programmable_config: None
  );
  const out = new Uint8Array(METAPLEX_METADATA_SIZE);
  out.set(body);
  return out;
}

export const metaplexMetadataAddress = (mint) =>
  findProgramAddress([Buffer.from('metadata'), pubkey(METAPLEX_PROGRAM), pubkey(mint)], METAPLEX_PROGRAM)[0];

export { equalBytes };
