import { MAX_RECORD_ID, recordIdOf } from './record-id';

describe('recordIdOf', () => {
  it('reads a positive integer written in digits, up to the largest id JSON gives back exactly', () => {
    expect(recordIdOf('1')).toBe(1);
    expect(recordIdOf('42')).toBe(42);
    expect(recordIdOf(String(MAX_RECORD_ID))).toBe(MAX_RECORD_ID);
  });

  it('refuses what a bigint column cannot hold or JavaScript would round to another id', () => {
    expect(recordIdOf('9007199254740993')).toBeUndefined(); // Number() makes it ...992
    expect(recordIdOf('99999999999999999999')).toBeUndefined();
  });

  it.each(['', '0', '-1', '01', '1.0', '1e3', ' 1', '0x10', 'abc'])('refuses %j', (text) => {
    expect(recordIdOf(text)).toBeUndefined();
  });

  it('refuses what is not text', () => {
    expect(recordIdOf(12)).toBeUndefined();
    expect(recordIdOf(['1', '2'])).toBeUndefined();
    expect(recordIdOf(undefined)).toBeUndefined();
  });
});
