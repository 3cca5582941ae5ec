/**
 * Stand-ins for the outside services of the end-to-end stack, on one port (STAND_IN_PORT):
 *
 * - the support desk's JWT sign-on (GET /access/jwt?jwt=&return_to=): checks the token's HS256 signature
 *   with the shared secret (ZENDESK_SECRET), records the sign-on and shows who signed on;
 *   GET /sign-ons lists what it recorded (the refused ones with `refused: true`);
 * - the chat widget's script (GET /chat/plugin.js): replays the page's queued calls and records every
 *   boot in `window.__chatStandIn.boots`, without drawing anything on the page.
 *
 *   STAND_IN_PORT=8767 ZENDESK_SECRET=... node e2e/stand-ins/desk-server.mjs
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.STAND_IN_PORT ?? 8767);
const secret = process.env.ZENDESK_SECRET ?? '';
const signOns = [];


/** The claims of an HS256 token whose signature holds, else null. */
function verify(token) {
  const [header, payload, signature] = String(token).split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  if (alg !== 'HS256') return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

const escape = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

const CHAT_SCRIPT = `(function () {
  var record = window.__chatStandIn = window.__chatStandIn || { boots: [], calls: [] };
  function call(command, options) {
    record.calls.push(command);
    if (command === 'boot') record.boots.push(options || {});
  }
  var queued = (window.ChannelIO && window.ChannelIO.q) || [];
  var widget = function () { call(arguments[0], arguments[1]); };
  widget.q = [];
  widget.c = function (args) { call(args[0], args[1]); };
  window.ChannelIO = widget;
  queued.forEach(function (args) { call(args[0], args[1]); });
})();
`;

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
  if (url.pathname === '/health') {
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  } else if (url.pathname === '/access/jwt') {
    const claims = verify(url.searchParams.get('jwt') ?? '');
    const returnTo = url.searchParams.get('return_to') ?? '';
    if (!claims) {
      signOns.push({ refused: true, returnTo });
      response.writeHead(401, { 'Content-Type': 'text/html; charset=utf-8' }).end('<h1>Invalid JWT signature</h1>');
      return;
    }
    signOns.push({ refused: false, name: claims.name, email: claims.email, externalId: claims.external_id, returnTo });
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(
      `<!doctype html><title>Stand-in desk</title><h1>Stand-in desk</h1>` +
        `<p id="signed-on">${escape(claims.name)} &lt;${escape(claims.email)}&gt;</p>` +
        `<p id="return-to">${escape(returnTo)}</p>`,
    );
  } else if (url.pathname === '/sign-ons') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(signOns));
  } else if (url.pathname === '/chat/plugin.js') {
    response
      .writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(CHAT_SCRIPT);
  } else if (url.pathname === '/hc/ko/requests/new' || url.pathname === '/') {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<h1>Stand-in help centre</h1>');
  } else {
    response.writeHead(404).end();
  }
});

server.listen(port, '127.0.0.1', () => console.log(`stand-in desk and chat on http://127.0.0.1:${port}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
