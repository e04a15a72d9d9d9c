import { consoleUserHeader, consoleUserOf } from './console-user';

// The console user named on a change is believed only when the console server signed it for that very request.

describe('the console user header', () => {
  const token = 'the operator token';

  it('names the user on the request it was signed for', () => {
    expect(consoleUserOf(token, 'req-1', consoleUserHeader(token, 'req-1', 'ana+ops@loja.example'))).toBe('ana+ops@loja.example');
  });

  it('names nobody when it was signed for another request, with another token, forged or altered', () => {
    const header = consoleUserHeader(token, 'req-1', 'ana@loja.example');
    expect(consoleUserOf(token, 'req-2', header)).toBeUndefined();
    expect(consoleUserOf('another token', 'req-1', header)).toBeUndefined();
    expect(consoleUserOf(undefined, 'req-1', header)).toBeUndefined();
    expect(consoleUserOf(token, 'req-1', header.replace('ana', 'bia'))).toBeUndefined();
    expect(consoleUserOf(token, 'req-1', 'ana@loja.example')).toBeUndefined();
    expect(consoleUserOf(token, 'req-1', `%E0%A4%A;${header.split(';')[1]}`)).toBeUndefined();
    expect(consoleUserOf(token, 'req-1', ['a', 'b'])).toBeUndefined();
  });
});
