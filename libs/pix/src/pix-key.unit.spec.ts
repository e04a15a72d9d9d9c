import { pixKeyType } from './pix-key';

describe('pixKeyType', () => {
  it.each([
    ['52998224725', 'CPF'],
    ['11222333000181', 'CNPJ'],
    ['12ABC34501DE35', 'CNPJ'],
    ['maria@example.com', 'EMAIL'],
    ['+5511987654321', 'PHONE'],
    ['+551133334444', 'PHONE'],
    ['123e4567-e89b-12d3-a456-426614174000', 'EVP'],
  ])('%s is a %s key', (key, type) => expect(pixKeyType(key)).toBe(type));

  it.each([
    ['52998224724'],
    ['11222333000180'],
    ['12ABC34501DE36'],
    ['12abc34501de35'],
    ['maria@'],
    ['5511987654321'],
    ['+15551234567'],
    ['123E4567-E89B-12D3-A456-426614174000'],
    [''],
    [`${'a'.repeat(70)}@example.com`],
  ])('%s is no key', (key) => expect(pixKeyType(key)).toBeUndefined());
});
