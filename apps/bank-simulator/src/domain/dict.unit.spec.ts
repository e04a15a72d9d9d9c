import { INSTITUTIONS, institutionOf, lookUpKey } from './dict';

describe('the simulated DICT', () => {
  it.each([
    ['52998224725', 'a CPF'],
    ['11222333000181', 'a CNPJ'],
    ['maria.silva@example.com', 'an e-mail'],
    ['+5511987654321', 'a mobile phone'],
    ['+551133334444', 'a landline'],
    ['7d9f0335-8dcc-4054-9bf9-0dbd61d36906', 'an EVP'],
  ])('resolves %s (%s) to an account at a known institution', (chave) => {
    const entry = lookUpKey(chave);
    expect(entry).toEqual({
      chave,
      ispb: expect.stringMatching(/^\d{8}$/),
      agencia: expect.stringMatching(/^\d{4}$/),
      conta: expect.stringMatching(/^\d{7}-\d$/),
      tipoConta: expect.stringMatching(/^(CORRENTE|PAGAMENTO)$/),
    });
    expect(institutionOf(entry?.ispb ?? '')).toBeDefined();
  });

  it('resolves a key always to the same account, an e-mail whatever its case', () => {
    expect(lookUpKey('maria.silva@example.com')).toEqual(lookUpKey('maria.silva@example.com'));
    expect({ ...lookUpKey('Maria.Silva@Example.com'), chave: 'x' }).toEqual({ ...lookUpKey('maria.silva@example.com'), chave: 'x' });
  });

  it('spreads keys over the institutions', () => {
    const ispbs = new Set(Array.from({ length: 60 }, (_, i) => lookUpKey(`cliente${i}@example.com`)?.ispb));
    expect(ispbs.size).toBeGreaterThan(3);
  });

  it.each([
    ['naoexiste@example.com', 'not registered'],
    ['NaoExiste.Tambem@example.com', 'not registered, whatever the case'],
    ['52998224724', 'a CPF with wrong check digits'],
    ['11222333000182', 'a CNPJ with wrong check digits'],
    ['5511987654321', 'a phone without +'],
    ['+1 555 0100', 'a foreign phone'],
    ['7D9F0335-8DCC-4054-9BF9-0DBD61D36906', 'an upper-case EVP'],
    ['not a key', 'nothing'],
    ['', 'empty'],
  ])('does not know %p (%s)', (chave) => {
    expect(lookUpKey(chave)).toBeUndefined();
  });

  it('knows six institutions by ISPB, with their COMPE codes', () => {
    expect(INSTITUTIONS).toHaveLength(6);
    expect(institutionOf('60701190')).toEqual({ ispb: '60701190', nome: 'Itaú Unibanco S.A.', codigo: '341' });
    expect(institutionOf('00000000')?.codigo).toBe('001');
    expect(institutionOf('18236120')?.codigo).toBe('260');
    expect(institutionOf('99999999')).toBeUndefined();
  });
});
