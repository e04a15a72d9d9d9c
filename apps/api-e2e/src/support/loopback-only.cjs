// Preloaded into a process under test (NODE_OPTIONS=--require): it never opens a connection beyond loopback.
//
// E2E_HOSTS='name=address,...' answers those names with those addresses (dns.promises.lookup, what the webhook sender
// resolves with), so a test can point a webhook at a link-local or private address without owning such a host. Any
// connection to an address that is not loopback, by IP or by name, goes to 127.0.0.1 on the same port instead and is
// reported on stderr ("loopback-only: turned back ..."): a receiver listening there, and the log, show a guard that let
// it through, and no packet leaves the machine.

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

const lookup = dns.promises.lookup;
dns.promises.lookup = async function (hostname, options) {
  const address = hosts.get(hostname);
  if (address === undefined) return lookup.call(this, hostname, options);
  const answer = { address, family: net.isIP(address) };
  return options && typeof options === 'object' && options.all ? [answer] : answer;
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
