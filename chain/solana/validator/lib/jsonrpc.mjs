// JSON-RPC 2.0 framing shared by the HTTP endpoint and the PubSub WebSocket: one request or a batch
// in, the answers out, with Solana's parse and invalid-request errors. A notification (a valid
// request without an id) runs but is never answered, even when it fails, as jsonrpc-core (Agave's
// server) does.

import { stringify } from './codec.mjs';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RpcError } from './errors.mjs';

/**
 * answer runs one request through call(method, params) and returns its response object. An
 * RpcError becomes the error answer; any other exception is logged and answered Internal error.
 */
export function answer(req, call, log) {
  if (req === null || typeof req !== 'object' || Array.isArray(req) || req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return { jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: req && typeof req === 'object' && 'id' in req ? req.id : null };
  }
  const id = req.id === undefined ? null : req.id;
  try {
    const result = call(req.method, req.params);
    return { jsonrpc: '2.0', result, id };
  } catch (e) {
    if (e instanceof RpcError) return { jsonrpc: '2.0', error: e.toJSON(), id };
    log(`${req.method}: ${e.stack ?? e}`);
    return { jsonrpc: '2.0', error: { code: INTERNAL_ERROR, message: 'Internal error' }, id };
  }
}

const isNotification = (r) => r && typeof r === 'object' && !Array.isArray(r) && r.jsonrpc === '2.0' && typeof r.method === 'string' && !('id' in r);

/**
 * answerText answers a request body (text): a parse error, one answer, or a batch's answers in
 * order (an empty batch is an invalid request). It returns the answer's JSON text, or null when
 * nothing is to be answered (notifications only).
 */
export function answerText(text, call, log) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return stringify({ jsonrpc: '2.0', error: { code: PARSE_ERROR, message: 'Parse error' }, id: null });
  }
  if (Array.isArray(body)) {
    if (body.length === 0) return stringify({ jsonrpc: '2.0', error: { code: INVALID_REQUEST, message: 'Invalid request' }, id: null });
    const out = [];
    for (const r of body) {
      const a = answer(r, call, log);
      if (!isNotification(r)) out.push(a);
    }
    return out.length ? stringify(out) : null;
  }
  const a = answer(body, call, log);
  return isNotification(body) ? null : stringify(a);
}
