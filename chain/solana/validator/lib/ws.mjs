// The PubSub WebSocket endpoint: JSON-RPC 2.0 text messages over WebSocket (the `ws` package),
// each connection a PubSub connection (lib/pubsub.mjs). Requests and batches are answered as on the
// HTTP endpoint; notifications go out as the chain moves. A plain HTTP request is refused.

import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { answerText } from './jsonrpc.mjs';

const MAX_MESSAGE = 1 << 20; // bytes a request may have, as the HTTP body limit
const MAX_BUFFERED = 64 << 20; // a client this far behind in reading is disconnected (Agave drops lagging clients)

/**
 * pubSubServer returns the PubSub endpoint over pubsub: server (a node HTTP server to listen with,
 * which upgrades to WebSocket) and close (ends every connection and the server).
 */
export function pubSubServer(pubsub, log) {
  const server = createServer((req, res) => {
    res.writeHead(400, { 'Content-Type': 'text/plain' });
    res.end('Solana PubSub: connect with a WebSocket client');
  });
  // noServer: the upgrade is handed over below, so the WebSocket server does not take over the
  // HTTP server's events (a listen error stays the caller's, who may try another port).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE });
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
  wss.on('connection', (ws) => {
    const send = (text) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED) {
        log('pubsub: a client fell too far behind; disconnected');
        ws.terminate();
        return;
      }
      ws.send(text);
    };
    const conn = pubsub.connect(send);
    ws.on('message', (data) => {
      const out = answerText(data.toString('utf8'), (method, params) => conn.call(method, params), log);
      if (out !== null) send(out);
    });
    ws.on('close', () => conn.close());
    ws.on('error', (e) => log(`pubsub connection: ${e.message}`));
  });
  return {
    server,
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close();
    },
  };
}
