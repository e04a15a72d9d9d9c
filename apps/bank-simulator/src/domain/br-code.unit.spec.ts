import { brCode, crc16 } from './br-code';

describe('crc16 (CRC-16/CCITT-FALSE)', () => {
  it('gives the check value of the standard test vector', () => {
    expect(crc16('123456789')).toBe('29B1');
  });
});

describe('brCode', () => {
  it('reproduces the spec example of a journey 2 QR (recResponse3) to the last character', () => {
    expect(
      brCode({ merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA', recurrenceLocation: 'pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002' }),
    ).toBe(
      '00020126180014br.gov.bcb.pix5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac120002630462C9',
    );
  });

  it('reproduces the spec example of a journey 3 composite QR (recResponse6)', () => {
    expect(
      brCode({
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
        chargeLocation: 'pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441',
        recurrenceLocation: 'pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa353194890',
      }),
    ).toBe(
      '00020101021226760014br.gov.bcb.pix2554pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/94ed2badcbc04c15b0bb7fa35319489063047741',
    );
  });

  it('writes names in ASCII within their field limits', () => {
    const code = brCode({ merchantName: 'Açaí & Companhia de Serviços Ltda', merchantCity: 'São João del-Rei', chargeLocation: 'h/qr/v2/abc' });
    expect(code).toContain('5925Acai & Companhia de Servi');
    expect(code).toContain('6015Sao Joao del-Re');
    expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
  });
});
