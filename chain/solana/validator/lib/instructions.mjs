// jsonParsed instructions, as Agave's transaction-status crate writes them in getTransaction:
// System transfers, SPL Token and Token-2022 transfers (transfer, transferChecked and Token-2022's
// transferCheckedWithFee), the Associated Token Account program (create, createIdempotent,
// recoverNested) and memos are parsed; any other instruction, or one these cannot parse (too few
// accounts, unknown data), is partially decoded: {programId, accounts, data (base58), stackHeight}.

import { bs58 } from './codec.mjs';
import { ATA_PROGRAM, MEMO_PROGRAM, MEMO_V1_PROGRAM, SYSTEM_PROGRAM, isTokenProgram, tokenAmount } from './token.mjs';

// Agave's program names (parse_instruction.rs: the ParsableProgram variant in kebab case). Both
// token programs are "spl-token" there (instruction parsing does not tell them apart, unlike the
// account decoder's "spl-token-2022").
const SYSTEM = 'system';
const SPL_TOKEN = 'spl-token';
const SPL_ATA = 'spl-associated-token-account';
const SPL_MEMO = 'spl-memo';

const u32 = (d, o) => new DataView(d.buffer, d.byteOffset + o, 4).getUint32(0, true);
const u64 = (d, o) => new DataView(d.buffer, d.byteOffset + o, 8).getBigUint64(0, true);

/**
 * signers adds the authority of a token instruction to info as Agave's parse_signers does: the
 * account at index `at` is `single` when it is the instruction's last account, else it is
 * `multisig` and the accounts after it are `signers`.
 */
function signers(info, acc, at, single, multisig) {
  if (acc.length > at + 1) {
    info[multisig] = acc[at];
    info.signers = acc.slice(at + 1);
  } else info[single] = acc[at];
  return info;
}

/** system parses the System program's transfer; null for anything else. */
function system(acc, data) {
  if (data.length >= 12 && u32(data, 0) === 2 && acc.length >= 2) {
    return { info: { destination: acc[1], lamports: u64(data, 4), source: acc[0] }, type: 'transfer' };
  }
  return null;
}

/**
 * token parses SPL Token and Token-2022 transfers (both programs' instructions unpack as
 * Token-2022's, as in Agave): transfer [3, amount], transferChecked [12, amount, decimals] and
 * the transfer-fee extension's transferCheckedWithFee [26, 1, amount, decimals, fee]; null for
 * anything else.
 */
function token(acc, data) {
  if (data[0] === 3 && data.length >= 9 && acc.length >= 3) {
    const info = { source: acc[0], destination: acc[1], amount: u64(data, 1).toString() };
    return { info: signers(info, acc, 2, 'authority', 'multisigAuthority'), type: 'transfer' };
  }
  if (data[0] === 12 && data.length >= 10 && acc.length >= 4) {
    const info = { source: acc[0], mint: acc[1], destination: acc[2], tokenAmount: tokenAmount(u64(data, 1), data[9]) };
    return { info: signers(info, acc, 3, 'authority', 'multisigAuthority'), type: 'transferChecked' };
  }
  if (data[0] === 26 && data[1] === 1 && data.length >= 19 && acc.length >= 4) {
    const decimals = data[10];
    const info = {
      source: acc[0],
      mint: acc[1],
      destination: acc[2],
      tokenAmount: tokenAmount(u64(data, 2), decimals),
      feeAmount: tokenAmount(u64(data, 11), decimals),
    };
    return { info: signers(info, acc, 3, 'authority', 'multisigAuthority'), type: 'transferCheckedWithFee' };
  }
  return null;
}

/**
 * associatedToken parses the Associated Token Account program (parse_associated_token.rs): empty
 * data or [0] create, [1] createIdempotent (6 accounts each), [2] recoverNested (7 accounts);
 * null for anything else (Borsh: one byte, nothing after it).
 */
function associatedToken(acc, data) {
  const kind = data.length === 0 ? 0 : data.length === 1 ? data[0] : -1;
  if ((kind === 0 || kind === 1) && acc.length >= 6) {
    return {
      info: { source: acc[0], account: acc[1], wallet: acc[2], mint: acc[3], systemProgram: acc[4], tokenProgram: acc[5] },
      type: kind === 0 ? 'create' : 'createIdempotent',
    };
  }
  if (kind === 2 && acc.length >= 7) {
    return {
      info: { nestedSource: acc[0], nestedMint: acc[1], destination: acc[2], nestedOwner: acc[3], ownerMint: acc[4], wallet: acc[5], tokenProgram: acc[6] },
      type: 'recoverNested',
    };
  }
  return null;
}

/** sortKeys orders an info object's keys as Agave's serde_json map (a BTreeMap) writes them. */
const sortKeys = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** memo is a memo's text; null when it is not UTF-8 (Agave then leaves the instruction undecoded). */
function memo(data) {
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

/**
 * parsedInstruction is one instruction of a transaction as getTransaction's jsonParsed encoding
 * writes it. keys are the transaction's account keys (static, then loaded) in base58; accounts
 * index into them; stackHeight is null for top-level instructions.
 */
export function parsedInstruction(keys, programIdIndex, accounts, data, stackHeight) {
  const programId = keys[programIdIndex];
  const acc = accounts.map((i) => keys[i]);
  let program = null;
  let parsed = null;
  if (programId === SYSTEM_PROGRAM) {
    program = SYSTEM;
    parsed = system(acc, data);
  } else if (isTokenProgram(programId)) {
    program = SPL_TOKEN;
    parsed = token(acc, data);
  } else if (programId === ATA_PROGRAM) {
    program = SPL_ATA;
    parsed = associatedToken(acc, data);
  } else if (programId === MEMO_PROGRAM || programId === MEMO_V1_PROGRAM) {
    program = SPL_MEMO;
    parsed = memo(data);
  }
  if (parsed !== null) {
    if (parsed.info) parsed = { info: sortKeys(parsed.info), type: parsed.type };
    return { parsed, program, programId, stackHeight };
  }
  return { accounts: acc, data: bs58(data), programId, stackHeight };
}
