// Solana's error shapes: JSON-RPC error codes, and TransactionError as Solana serializes and prints it.

/** RpcError is a JSON-RPC error object: code, message and optional data, exactly as sent. */
export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
  toJSON() {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
// Solana's server errors (rpc-client-api custom_error.rs).
export const BLOCK_CLEANED_UP = -32001;
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;
export const BLOCK_NOT_AVAILABLE = -32004;
export const SLOT_SKIPPED = -32007;
export const TRANSACTION_HISTORY_NOT_AVAILABLE = -32011;
export const UNSUPPORTED_TRANSACTION_VERSION = -32015;
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

export const invalidParams = (msg) => new RpcError(INVALID_PARAMS, msg);

// TransactionError variants without fields, in LiteSVM's enum order (TransactionErrorFieldless).
const TX_FIELDLESS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];

// InstructionError variants without fields, in LiteSVM's enum order (InstructionErrorFieldless), with
// the messages Solana prints for them.
const IX_FIELDLESS = [
  ['GenericError', 'generic instruction error'],
  ['InvalidArgument', 'invalid program argument'],
  ['InvalidInstructionData', 'invalid instruction data'],
  ['InvalidAccountData', 'invalid account data for instruction'],
  ['AccountDataTooSmall', 'account data too small for instruction'],
  ['InsufficientFunds', 'insufficient funds for instruction'],
  ['IncorrectProgramId', 'incorrect program id for instruction'],
  ['MissingRequiredSignature', 'missing required signature for instruction'],
  ['AccountAlreadyInitialized', 'instruction requires an uninitialized account'],
  ['UninitializedAccount', 'instruction requires an initialized account'],
  ['UnbalancedInstruction', 'sum of account balances before and after instruction do not match'],
  ['ModifiedProgramId', 'instruction illegally modified the program id of an account'],
  ['ExternalAccountLamportSpend', 'instruction spent from the balance of an account it does not own'],
  ['ExternalAccountDataModified', 'instruction modified data of an account it does not own'],
  ['ReadonlyLamportChange', 'instruction changed the balance of a read-only account'],
  ['ReadonlyDataModified', 'instruction modified data of a read-only account'],
  ['DuplicateAccountIndex', 'instruction contains duplicate accounts'],
  ['ExecutableModified', 'instruction changed executable bit of an account'],
  ['RentEpochModified', 'instruction modified rent epoch of an account'],
  ['NotEnoughAccountKeys', 'insufficient account keys for instruction'],
  ['AccountDataSizeChanged', "program other than the account's owner changed the size of the account data"],
  ['AccountNotExecutable', 'instruction expected an executable account'],
  ['AccountBorrowFailed', 'instruction tries to borrow reference for an account which is already borrowed'],
  ['AccountBorrowOutstanding', 'instruction left account with an outstanding borrowed reference'],
  ['DuplicateAccountOutOfSync', 'instruction modifications of multiply-passed account differ'],
  ['InvalidError', 'program returned invalid error code'],
  ['ExecutableDataModified', 'instruction changed executable accounts data'],
  ['ExecutableLamportChange', 'instruction changed the balance of an executable account'],
  ['ExecutableAccountNotRentExempt', 'executable accounts must be rent exempt'],
  ['UnsupportedProgramId', 'Unsupported program id'],
  ['CallDepth', 'Cross-program invocation call depth too deep'],
  ['MissingAccount', 'An account required by the instruction is missing'],
  ['ReentrancyNotAllowed', 'Cross-program invocation reentrancy not allowed for this instruction'],
  ['MaxSeedLengthExceeded', 'Length of the seed is too long for address generation'],
  ['InvalidSeeds', 'Provided seeds do not result in a valid address'],
  ['InvalidRealloc', 'Failed to reallocate account data'],
  ['ComputationalBudgetExceeded', 'Computational budget exceeded'],
  ['PrivilegeEscalation', 'Cross-program invocation with unauthorized signer or writable account'],
  ['ProgramEnvironmentSetupFailure', 'Failed to create program execution environment'],
  ['ProgramFailedToComplete', 'Program failed to complete'],
  ['ProgramFailedToCompile', 'Program failed to compile'],
  ['Immutable', 'Account is immutable'],
  ['IncorrectAuthority', 'Incorrect authority provided'],
  ['AccountNotRentExempt', 'An account does not have enough lamports to be rent-exempt'],
  ['InvalidAccountOwner', 'Invalid account owner'],
  ['ArithmeticOverflow', 'Program arithmetic overflowed'],
  ['UnsupportedSysvar', 'Unsupported sysvar'],
  ['IllegalOwner', 'Provided owner is not allowed'],
  ['MaxAccountsDataAllocationsExceeded', 'Accounts data allocations exceeded the maximum allowed per transaction'],
  ['MaxAccountsExceeded', 'Max accounts exceeded'],
  ['MaxInstructionTraceLengthExceeded', 'Max instruction trace length exceeded'],
  ['BuiltinProgramsMustConsumeComputeUnits', 'Builtin programs must consume compute units'],
  ['BorshIoError', 'Failed to serialize or deserialize account data'],
];

const TX_MESSAGES = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  CallChainTooDeep: 'Loader call chain is too deep',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  ClusterMaintenance: 'Transactions are currently disabled due to cluster maintenance',
  AccountBorrowOutstanding: 'Transaction processing left an account with an outstanding borrowed reference',
  UnsupportedVersion: 'Transaction version is unsupported',
  InvalidWritableAccount: 'Transaction loads a writable account that cannot be written',
  TooManyAccountLocks: 'Transaction locked too many accounts',
  AddressLookupTableNotFound: "Transaction loads an address table account that doesn't exist",
  InvalidAddressLookupTableOwner: 'Transaction loads an address table account with an invalid owner',
  InvalidAddressLookupTableData: 'Transaction loads an address table account with invalid data',
  InvalidAddressLookupTableIndex: 'Transaction address table lookup uses an invalid index',
  InvalidRentPayingAccount: 'Transaction leaves an account with a lower balance than rent-exempt minimum',
  MaxLoadedAccountsDataSizeExceeded: 'Transaction exceeded max loaded accounts data size cap',
  InvalidLoadedAccountsDataSizeLimit: 'LoadedAccountsDataSizeLimit set for transaction must be greater than 0.',
  UnbalancedTransaction: 'Sum of account balances before and after transaction do not match',
};

/**
 * txError converts LiteSVM's TransactionError to Solana's JSON form and its display message:
 * { json: "BlockhashNotFound" | {"InstructionError":[0,{"Custom":1}]} | ..., message: "..." }.
 */
export function txError(e) {
  if (typeof e === 'number') {
    const name = TX_FIELDLESS[e] ?? 'SanitizeFailure';
    return { json: name, message: TX_MESSAGES[name] ?? name };
  }
  const kind = e?.constructor?.name ?? '';
  if (kind.endsWith('InstructionError') && typeof e.err === 'function') {
    const ie = e.err();
    let json, msg;
    if (typeof ie === 'number') {
      const [name, m] = IX_FIELDLESS[ie] ?? ['GenericError', 'generic instruction error'];
      json = name;
      msg = m;
    } else if (ie && 'code' in ie) {
      json = { Custom: ie.code };
      msg = `custom program error: 0x${ie.code.toString(16)}`;
    } else {
      json = { BorshIoError: ie?.msg ?? '' };
      msg = 'Failed to serialize or deserialize account data';
    }
    return { json: { InstructionError: [e.index, json] }, message: `Error processing Instruction ${e.index}: ${msg}` };
  }
  if (kind.endsWith('DuplicateInstruction')) {
    return { json: { DuplicateInstruction: e.index }, message: `Transaction contains a duplicate instruction (${e.index}) that is not allowed` };
  }
  if (kind.endsWith('InsufficientFundsForRent')) {
    return { json: { InsufficientFundsForRent: { account_index: e.accountIndex } }, message: `Transaction results in an account (${e.accountIndex}) with insufficient funds for rent` };
  }
  if (kind.endsWith('ProgramExecutionTemporarilyRestricted')) {
    return {
      json: { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } },
      message: `Execution of the program referenced by account at index ${e.accountIndex} is temporarily restricted.`,
    };
  }
  return { json: 'SanitizeFailure', message: String(e) };
}

/** namedTxError is a fieldless TransactionError by name, as txError returns it. */
export const namedTxError = (name) => ({ json: name, message: TX_MESSAGES[name] ?? name });
