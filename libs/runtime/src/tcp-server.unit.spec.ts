import { ServiceTcpServer } from './tcp-server';

/** The server's handler lookup, as NestJS's TCP server calls it for each message (no socket: nothing listens). */
const lookup = (server: ServiceTcpServer, pattern: string) => server.getHandlerByPattern(pattern);

describe('ServiceTcpServer', () => {
  const server = new ServiceTcpServer({ host: '127.0.0.1', port: 0 });
  const byName = jest.fn();
  const byObject = jest.fn();
  server.addHandler('limits.get', byName);
  server.addHandler({ cmd: 'limits.get', version: 2 }, byObject);
  afterEach(() => jest.restoreAllMocks());

  it('finds a string pattern’s handler without parsing it as JSON (no SyntaxError thrown and caught per message)', () => {
    const parse = jest.spyOn(JSON, 'parse');
    expect(lookup(server, 'limits.get')).toBe(byName);
    expect(parse).not.toHaveBeenCalled();
  });

  it('finds an object pattern’s handler as NestJS does, key order aside', () => {
    expect(lookup(server, JSON.stringify({ version: 2, cmd: 'limits.get' }))).toBe(byObject);
  });

  it('finds nothing for a pattern no handler has', () => {
    expect(lookup(server, 'limits.gone')).toBeNull();
    expect(lookup(server, '{"cmd":"other"}')).toBeNull();
  });
});
