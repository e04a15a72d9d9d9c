// Preloaded into every app the end-to-end suite starts (NODE_OPTIONS=--require, support/running-system.ts): a process under
// test never sends a packet beyond loopback, not even a DNS query.
//
// Names resolve here, never through a resolver: localhost to 127.0.0.1, E2E_HOSTS='name=address,...' to those
// addresses (so a test can point a webhook at a link-local or private address without owning such a host), and any
// other name (a merchant's https://shop.example.com in a test's request) fails as an unknown name does (ENOTFOUND).
// Any connection to an address that is not loopback, by IP or by name, goes to 127.0.0.1 on the same port instead and
// is reported on stderr ("loopback-only: turned back ..."): a receiver listening there, and the log, show a guard that
// let it through, and no packet leaves the machine.

const dns = require('node:dns');
const net = require('node:net');

const hosts = new Map(
  (process.env.E2E_HOSTS ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf('=');
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
);
hosts.set('localhost', hosts.get('localhost') ?? '127.0.0.1');

/** What a name resolves to here: an IP literal as it is, a known name from the table, anything else not found. */
function answerFor(hostname) {
  if (net.isIP(hostname)) return hostname;
  const address = hosts.get(String(hostname).toLowerCase().replace(/\.$/, ''));
  if (address !== undefined) return address;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
}

dns.promises.lookup = async function (hostname, options) {
  const address = answerFor(hostname);
  const answer = { address, family: net.isIP(address) };
  return options && typeof options === 'object' && options.all ? [answer] : answer;
};
dns.lookup = function (hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const all = options && typeof options === 'object' && options.all;
  let address;
  try {
    address = answerFor(hostname);
  } catch (error) {
    return process.nextTick(done, error);
  }
  const family = net.isIP(address);
  return all ? process.nextTick(done, null, [{ address, family }]) : process.nextTick(done, null, address, family);
};

const isLoopback = (address) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address);
const turnedBack = (address) => process.stderr.write(`loopback-only: turned back a connection to ${address}\n`);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const options = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (options && typeof options === 'object' && !options.path) {
    if (options.host && net.isIP(options.host) && !isLoopback(options.host)) {
      turnedBack(options.host);
      options.host = '127.0.0.1';
    }
    const resolve = options.lookup ?? dns.lookup;
    options.lookup = (hostname, lookupOptions, callback) =>
      resolve(hostname, lookupOptions, (error, address, family) => {
        if (error) return callback(error, address, family);
        const list = Array.isArray(address) ? address : [{ address, family }];
        const safe = list.map((entry) => (isLoopback(entry.address) ? entry : (turnedBack(entry.address), { address: '127.0.0.1', family: 4 })));
        return Array.isArray(address) ? callback(null, safe) : callback(null, safe[0].address, safe[0].family);
      });
  }
  return connect.apply(this, args);
};
