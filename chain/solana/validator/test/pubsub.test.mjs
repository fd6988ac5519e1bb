// The validator's PubSub over a real WebSocket: every subscription kind, its notifications in
// Agave's exact shapes, at each commitment level of the chain's model, the unsubscribes, and the
// errors. Run by localnet's TestPubSub (so make test runs it), or: node --test test/

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client, fresh, keypair, result, rpc, send, startValidator, transfer } from './harness.mjs';

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

let node;
let ws;

before(async () => {
  node = await startValidator();
  ws = await Client.open(node.wsUrl);
});

after(async () => {
  await ws?.close();
  await node?.stop();
});

/** notification is the notification Agave sends: method, the result and the subscription id. */
const notification = (method, subscription, result) => ({ jsonrpc: '2.0', method, params: { result, subscription } });

/** status is a signature's confirmationStatus now. */
const status = async (sig) => (await result(node.url, 'getSignatureStatuses', [[sig]])).value[0]?.confirmationStatus ?? null;

test('PubSub listens on the RPC port + 1', () => {
  const rpcPort = Number(new URL(node.url).port);
  assert.equal(node.wsUrl, `ws://127.0.0.1:${rpcPort + 1}`);
});

test('--port P with P + 1 taken: the validator says so and exits', async () => {
  const listen = async (p) => {
    const srv = createServer();
    srv.listen(p, '127.0.0.1');
    await Promise.race([once(srv, 'listening'), once(srv, 'error').then(([e]) => Promise.reject(e))]);
    return srv;
  };
  let blocker;
  let p;
  for (let i = 0; i < 20 && p === undefined; i++) {
    blocker = await listen(0);
    p = blocker.address().port - 1;
    try {
      (await listen(p)).close(); // p is free: the validator may take it, and find p + 1 taken
    } catch {
      blocker.close();
      p = undefined;
    }
  }
  try {
    const server = fileURLToPath(new URL('../server.mjs', import.meta.url));
    const child = spawn(process.execPath, [server, '--port', String(p), '--activity-ms', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr.on('data', (d) => (log += d));
    const [code] = await once(child, 'exit');
    assert.equal(code, 1);
    assert.match(log, new RegExp(`listen: PubSub port ${p + 1}: .*EADDRINUSE`));
  } finally {
    blocker.close();
  }
});

test('signatureSubscribe: received, then one notification at each commitment, then gone', async () => {
  const from = keypair(node, 'holder-0');
  const tx = await transfer(node, from, fresh('sig').address, 1_000_000);
  const processed = await ws.subscribe('signatureSubscribe', [tx.signature, { commitment: 'processed', enableReceivedNotification: true }]);
  const confirmed = await ws.subscribe('signatureSubscribe', [tx.signature, { commitment: 'confirmed' }]);
  const finalized = await ws.subscribe('signatureSubscribe', [tx.signature]); // finalized by default
  assert.ok(Number.isInteger(processed) && processed >= 0);
  assert.equal(new Set([processed, confirmed, finalized]).size, 3);
  // The identical subscription is the same subscription (as on Agave).
  assert.equal(await ws.subscribe('signatureSubscribe', [tx.signature, { commitment: 'confirmed' }]), confirmed);

  assert.equal(await send(node, tx), tx.signature);
  const { slot } = (await result(node.url, 'getSignatureStatuses', [[tx.signature]])).value[0];
  const received = await ws.next(Client.of(processed), 'received notification');
  assert.equal(received.params.result.value, 'receivedSignature');
  assert.deepEqual(received, notification('signatureNotification', processed, { context: { slot: received.params.result.context.slot }, value: 'receivedSignature' }));
  assert.deepEqual(await ws.next(Client.of(processed), 'processed'), notification('signatureNotification', processed, { context: { slot }, value: { err: null } }));

  const c = await ws.next(Client.of(confirmed), 'confirmed');
  assert.deepEqual(c, notification('signatureNotification', confirmed, { context: { slot }, value: { err: null } }));
  assert.notEqual(await status(tx.signature), 'processed', 'notified confirmed before the status is');
  const f = await ws.next(Client.of(finalized), 'finalized');
  assert.deepEqual(f, notification('signatureNotification', finalized, { context: { slot }, value: { err: null } }));
  assert.equal(await status(tx.signature), 'finalized');

  // One-shot: each subscription is gone once notified.
  for (const id of [processed, confirmed, finalized]) {
    assert.deepEqual(await ws.call('signatureUnsubscribe', [id]), { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid subscription id.' }, id: ws.id });
  }
  assert.deepEqual(await ws.quiet(processed, 300), []);
});

test('signatureSubscribe: a failed transaction carries its error; unsubscribe before it lands', async () => {
  const from = keypair(node, 'holder-1');
  const { value: lamports } = await result(node.url, 'getBalance', [from.address, { commitment: 'processed' }]);
  const tx = await transfer(node, from, fresh('fail').address, lamports + 1); // more than it has: fails, fee charged
  const id = await ws.subscribe('signatureSubscribe', [tx.signature, { commitment: 'confirmed' }]);
  const dropped = await ws.subscribe('signatureSubscribe', [tx.signature, { commitment: 'processed' }]);
  assert.deepEqual(await ws.call('signatureUnsubscribe', [dropped]), { jsonrpc: '2.0', result: true, id: ws.id });
  await send(node, tx, { skipPreflight: true });
  const n = await ws.next(Client.of(id), 'confirmed failure');
  const st = (await result(node.url, 'getSignatureStatuses', [[tx.signature]])).value[0];
  assert.deepEqual(st.err, { InstructionError: [0, { Custom: 1 }] });
  assert.deepEqual(n, notification('signatureNotification', id, { context: { slot: st.slot }, value: { err: st.err } }));
  assert.deepEqual(await ws.quiet(dropped, 300), [], 'an unsubscribed subscription was notified');
});

test('accountSubscribe: the state at the commitment, each encoding, dataSlice, a deleted account', async () => {
  const from = keypair(node, 'holder-2');
  const wallet = fresh('account');
  const b58 = await ws.subscribe('accountSubscribe', [wallet.address, { commitment: 'processed' }]); // binary by default
  const b64 = await ws.subscribe('accountSubscribe', [wallet.address, { commitment: 'confirmed', encoding: 'base64' }]);
  const parsed = await ws.subscribe('accountSubscribe', [wallet.address, { commitment: 'finalized', encoding: 'jsonParsed' }]);
  const tx = await transfer(node, from, wallet.address, 10_000_000);
  await send(node, tx);
  const { slot } = (await result(node.url, 'getSignatureStatuses', [[tx.signature]])).value[0];
  const account = (data) => ({ data, executable: false, lamports: 10_000_000, owner: SYSTEM, rentEpoch: 18446744073709551615, space: 0 });
  assert.deepEqual(await ws.next(Client.of(b58), 'processed account'), notification('accountNotification', b58, { context: { slot }, value: account('') }));
  const c = await ws.next(Client.of(b64), 'confirmed account');
  assert.deepEqual(c, notification('accountNotification', b64, { context: { slot }, value: account(['', 'base64']) }));
  const info = await result(node.url, 'getAccountInfo', [wallet.address, { commitment: 'confirmed', encoding: 'base64' }]);
  assert.deepEqual(c.params.result.value, info.value, 'the notification differs from getAccountInfo at the same commitment');
  assert.deepEqual(await ws.next(Client.of(parsed), 'finalized account'), notification('accountNotification', parsed, { context: { slot }, value: account(['', 'base64']) }));

  // The wallet sends everything it has but the fee: it is deleted, and notified as Agave's default account.
  const out = await transfer(node, wallet, from.address, 10_000_000 - 5000);
  await send(node, out);
  const gone = await ws.next(Client.of(b58), 'deleted account');
  const outSlot = (await result(node.url, 'getSignatureStatuses', [[out.signature]])).value[0].slot;
  assert.deepEqual(gone, notification('accountNotification', b58, { context: { slot: outSlot }, value: { data: '', executable: false, lamports: 0, owner: SYSTEM, rentEpoch: 0, space: 0 } }));
  const none = { data: ['', 'base64'], executable: false, lamports: 0, owner: SYSTEM, rentEpoch: 0, space: 0 };
  assert.deepEqual(await ws.next(Client.of(b64), 'deleted, confirmed'), notification('accountNotification', b64, { context: { slot: outSlot }, value: none }));
  assert.deepEqual(await ws.next(Client.of(parsed), 'deleted, finalized'), notification('accountNotification', parsed, { context: { slot: outSlot }, value: none }));

  // Unsubscribed: nothing more.
  for (const id of [b58, b64, parsed]) assert.deepEqual(await ws.call('accountUnsubscribe', [id]), { jsonrpc: '2.0', result: true, id: ws.id });
  await send(node, await transfer(node, from, wallet.address, 5_000_000));
  assert.deepEqual(await ws.quiet(b58, 600), []);
  assert.deepEqual(await ws.quiet(b64, 0), []);
  assert.deepEqual(await ws.quiet(parsed, 0), []);
});

test('accountSubscribe and programSubscribe on token accounts: jsonParsed as getAccountInfo, filters, dataSlice', async () => {
  const usdc = node.mints.find((m) => m.symbol === 'USDC');
  const sender = node.holdings.find((h) => h.owner === 'holder-3' && h.symbol === 'USDC' && h.associated);
  const receiver = node.holdings.find((h) => h.owner === 'holder-4' && h.symbol === 'USDC' && h.associated);
  const acc = await ws.subscribe('accountSubscribe', [receiver.account, { commitment: 'confirmed', encoding: 'jsonParsed' }]);
  const sliced = await ws.subscribe('accountSubscribe', [receiver.account, { commitment: 'processed', encoding: 'base64', dataSlice: { offset: 32, length: 32 } }]);
  const prog = await ws.subscribe('programSubscribe', [
    TOKEN,
    { commitment: 'confirmed', encoding: 'jsonParsed', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: receiver.address } }] },
  ]);
  const all = await ws.subscribe('programSubscribe', [TOKEN, { commitment: 'processed', encoding: 'base64' }]);

  const { ixs } = await import('../lib/token.mjs');
  const { compileLegacy, signTransaction, unbs58, bs58, b64, parseTransaction } = await import('../lib/codec.mjs');
  const holder = keypair(node, 'holder-3');
  const { value } = await result(node.url, 'getLatestBlockhash', [{ commitment: 'processed' }]);
  const ix = ixs.transferChecked(TOKEN, unbs58(sender.account), unbs58(usdc.address), unbs58(receiver.account), holder.publicKey, 1_500_000n, 6);
  const { message, signers } = compileLegacy(holder.publicKey, [ix], unbs58(value.blockhash));
  const wire = signTransaction(message, signers, [holder]);
  const sig = bs58(parseTransaction(wire).signatures[0]);
  await result(node.url, 'sendTransaction', [b64(wire), { encoding: 'base64' }]);
  const { slot } = (await result(node.url, 'getSignatureStatuses', [[sig]])).value[0];

  const n = await ws.next(Client.of(acc), 'token account');
  const info = await result(node.url, 'getAccountInfo', [receiver.account, { commitment: 'confirmed', encoding: 'jsonParsed' }]);
  assert.deepEqual(n, notification('accountNotification', acc, { context: { slot }, value: info.value }));
  assert.equal(n.params.result.value.data.parsed.info.tokenAmount.amount, String(BigInt(receiver.amount) + 1_500_000n));

  const s = await ws.next(Client.of(sliced), 'sliced account');
  assert.deepEqual(s.params.result.value.data, [Buffer.from(unbs58(receiver.address)).toString('base64'), 'base64']);
  assert.equal(s.params.result.value.space, 165);

  // The filtered program subscription: only the receiver's account (owner at offset 32).
  const p = await ws.next(Client.of(prog), 'program');
  assert.deepEqual(p, notification('programNotification', prog, { context: { slot }, value: { pubkey: receiver.account, account: info.value } }));
  assert.deepEqual(await ws.quiet(prog, 300), [], 'the filters let the sender through');
  // Unfiltered: both token accounts the transfer stored, at processed.
  const pa = [await ws.next(Client.of(all), 'program 1'), await ws.next(Client.of(all), 'program 2')].map((x) => x.params.result.value.pubkey);
  assert.deepEqual(pa.sort(), [sender.account, receiver.account].sort());
  for (const [m, id] of [['accountUnsubscribe', acc], ['accountUnsubscribe', sliced], ['programUnsubscribe', prog], ['programUnsubscribe', all]]) {
    assert.equal((await ws.call(m, [id])).result, true);
  }
});

test('logsSubscribe: mentions and all, with the transaction logs', async () => {
  const from = keypair(node, 'holder-5');
  const to = fresh('logs').address;
  const mentions = await ws.subscribe('logsSubscribe', [{ mentions: [to] }, { commitment: 'confirmed' }]);
  const all = await ws.subscribe('logsSubscribe', ['all', { commitment: 'processed' }]);
  const other = await ws.subscribe('logsSubscribe', [{ mentions: [fresh('nobody').address] }, { commitment: 'processed' }]);
  const tx = await transfer(node, from, to, 2_000_000);
  await send(node, tx);
  const n = await ws.next(Client.of(mentions), 'logs');
  const t = await result(node.url, 'getTransaction', [tx.signature, { commitment: 'confirmed' }]);
  const logs = ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'];
  assert.deepEqual(t.meta.logMessages, logs);
  assert.deepEqual(n, notification('logsNotification', mentions, { context: { slot: t.slot }, value: { signature: tx.signature, err: null, logs } }));
  const a = await ws.next((m) => Client.of(all)(m) && m.params.result.value.signature === tx.signature, 'logs all');
  assert.deepEqual(a.params.result, { context: { slot: t.slot }, value: { signature: tx.signature, err: null, logs } });
  assert.deepEqual(await ws.quiet(other, 200), []);
  for (const id of [mentions, all, other]) assert.equal((await ws.call('logsUnsubscribe', [id])).result, true);
});

test('slotSubscribe and rootSubscribe follow the blocks', async () => {
  const slot = await ws.subscribe('slotSubscribe', []);
  const root = await ws.subscribe('rootSubscribe', []);
  const s1 = (await ws.next(Client.of(slot), 'slot')).params.result;
  const s2 = (await ws.next(Client.of(slot), 'slot')).params.result;
  assert.deepEqual(Object.keys(s1).sort(), ['parent', 'root', 'slot']);
  assert.equal(s2.parent, s1.slot);
  assert.ok(s2.slot > s2.parent && s2.slot - s2.parent <= 2, `slot ${s2.slot} after ${s2.parent}`);
  assert.ok(s2.root < s2.parent && s2.root >= s1.root);
  const r = await ws.next(Client.of(root), 'root');
  assert.equal(typeof r.params.result, 'number');
  assert.deepEqual(r, notification('rootNotification', root, r.params.result));
  assert.equal((await ws.call('slotUnsubscribe', [slot])).result, true);
  assert.equal((await ws.call('rootUnsubscribe', [root])).result, true);
  ws.notifications.length = 0;
  assert.deepEqual(await ws.quiet(slot, 300), []);
});

test('one subscription shared by two connections lives until both let go', async () => {
  const other = await Client.open(node.wsUrl);
  const a = await ws.subscribe('slotSubscribe', []);
  const b = await other.subscribe('slotSubscribe', []);
  assert.equal(a, b);
  await other.close();
  await ws.next(Client.of(a), 'slot after the other connection closed');
  assert.equal((await ws.call('slotUnsubscribe', [a])).result, true);
  assert.equal((await ws.call('slotUnsubscribe', [a])).error.message, 'Invalid subscription id.');
});

test('errors as Agave answers them', async () => {
  const err = async (method, params) => (await ws.call(method, params)).error;
  assert.deepEqual(await err('accountSubscribe', ['not-a-key']), { code: -32602, message: 'Invalid Request: Invalid pubkey provided' });
  assert.deepEqual(await err('programSubscribe', ['0OIl']), { code: -32602, message: 'Invalid Request: Invalid pubkey provided' });
  assert.deepEqual(await err('signatureSubscribe', ['abc']), { code: -32602, message: 'Invalid Request: Invalid signature provided' });
  assert.deepEqual(await err('logsSubscribe', [{ mentions: [SYSTEM, TOKEN] }]), { code: -32602, message: 'Invalid Request: Only 1 address supported' });
  assert.deepEqual(await err('logsSubscribe', [{ mentions: ['nope'] }]), { code: -32602, message: 'Invalid Request: Invalid mentions provided' });
  assert.deepEqual(await err('accountUnsubscribe', [987654]), { code: -32602, message: 'Invalid subscription id.' });
  assert.equal((await err('accountSubscribe', [SYSTEM, { commitment: 'later' }])).code, -32602);
  assert.equal((await err('accountSubscribe', [SYSTEM, { encoding: 'hex' }])).code, -32602);
  assert.equal((await err('programSubscribe', [TOKEN, { filters: [{ what: 1 }] }])).code, -32602);
  assert.deepEqual(await err('blockSubscribe', ['all']), { code: -32601, message: 'Method not found' });
  assert.deepEqual(await err('getSlot', []), { code: -32601, message: 'Method not found' });
  assert.deepEqual(await ws.raw('{"jsonrpc":"2.0",', null), { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  const v = await ws.call('getVersion', []);
  assert.equal(v.result['solana-core'], (await result(node.url, 'getVersion'))['solana-core']);
  // A batch: answered in order; a notification (web3.js's ping) is not answered.
  const batch = await ws.raw(JSON.stringify([
    { jsonrpc: '2.0', id: 'x', method: 'slotSubscribe' },
    { jsonrpc: '2.0', method: 'ping', params: null },
    { jsonrpc: '2.0', id: 'y', method: 'slotUnsubscribe', params: [12345] },
  ]), 'batch');
  assert.equal(batch.length, 2);
  assert.equal(batch[0].id, 'x');
  assert.deepEqual(batch[1], { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid subscription id.' }, id: 'y' });
  assert.equal((await ws.call('slotUnsubscribe', [batch[0].result])).result, true);
  // The HTTP endpoint does not serve PubSub methods.
  assert.equal((await rpc(node.url, 'slotSubscribe')).error.code, -32601);
});
