import { duplicateKeyOf } from './json-body';

describe('duplicateKeyOf', () => {
  it('names the first key an object gives twice, with its path', () => {
    expect(duplicateKeyOf('{"type":"cashin","type":"cashout"}')).toBe('body.type');
    expect(duplicateKeyOf('{"payer":{"name":"a","document_number":"1","name":"b"}}')).toBe('body.payer.name');
    expect(duplicateKeyOf('{"items":[{"a":1},{"a":1,"a":2}]}')).toBe('body.items[1].a');
    // Escapes are the same key once decoded.
    expect(duplicateKeyOf('{"type":1,"t\\u0079pe":2}')).toBe('body.type');
  });

  it('finds none where keys repeat only across objects, or look like keys inside strings and arrays', () => {
    expect(duplicateKeyOf('{"a":{"id":1},"b":{"id":2}}')).toBeUndefined();
    expect(duplicateKeyOf('{"a":"\\"a\\":1","b":["a","a"]}')).toBeUndefined();
    expect(duplicateKeyOf('[{"a":1},{"a":1}]')).toBeUndefined();
    expect(duplicateKeyOf(' { "a" : 1 , "b" : { "a" : 2 } } ')).toBeUndefined();
  });

  it('leaves text that is not JSON to the parser', () => {
    expect(duplicateKeyOf('{"a":"unterminated')).toBeUndefined();
    expect(duplicateKeyOf('')).toBeUndefined();
  });
});
