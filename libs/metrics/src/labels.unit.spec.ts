import { bankOperationOf, outcomeOfStatus } from './labels';

describe('bankOperationOf', () => {
  it.each([
    ['POST', '/rec', 'POST /rec'],
    ['GET', '/rec/RR1234567820251120abcdefghijk?txid=abc', 'GET /rec/:id'],
    ['PUT', '/pix/E12345678202511201200abcdefghijk/devolucao/D1', 'PUT /pix/:id/devolucao/:id'],
    ['PUT', '/webhookrec', 'PUT /webhookrec'],
    ['PUT', '/webhook/7d9f0335-8dcc-4054-9bf9-0dbd61d36906', 'PUT /webhook/:id'],
    ['POST', '/sim/cobr/abc123/pay', 'POST /sim/cobr/:id/pay'],
    ['POST', '/sim/pix/E1/devolucao/D1/settle', 'POST /sim/pix/:id/devolucao/:id/settle'],
  ])('%s %s is %s', (method, path, operation) => {
    expect(bankOperationOf(method, path)).toBe(operation);
  });
});

describe('outcomeOfStatus', () => {
  it.each([
    [200, 'ok'],
    [201, 'ok'],
    [404, 'refused'],
    [422, 'refused'],
    [302, 'failed'],
    [500, 'failed'],
    [503, 'failed'],
  ])('%i is %s', (status, outcome) => {
    expect(outcomeOfStatus(status)).toBe(outcome);
  });
});
