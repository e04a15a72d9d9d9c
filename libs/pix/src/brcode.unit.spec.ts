import { immediatePaymentPixCode, QrCodeImages, qrCodeDataUri, readPixCode, recurrencePixCode } from './brcode';

describe('recurrence Pix codes', () => {
  it('carries the recurrence location under tag 80 with the Pix GUI, and a valid CRC', () => {
    const code = recurrencePixCode({ merchantName: 'Padaria São João', merchantCity: 'São Paulo', recurrenceUrl: 'https://pix.bank.example/rec/42' });
    expect(code).toMatch(/^000201/);
    expect(code).toContain('80');
    expect(code).toContain('0014br.gov.bcb.pix');
    expect(code).toContain('pix.bank.example/rec/42');
    expect(code).toContain('PADARIA SAO JOAO');
    const parsed = readPixCode(code) as { type?: string; urlRec?: string };
    expect(parsed).toMatchObject({ type: 'RECURRENCE', urlRec: 'pix.bank.example/rec/42' });
  });

  it('carries the immediate payment too in journey 3', () => {
    const code = recurrencePixCode({
      merchantName: 'Loja',
      merchantCity: 'Recife',
      recurrenceUrl: 'pix.bank.example/rec/42',
      immediatePaymentUrl: 'https://pix.bank.example/cob/9',
    });
    const parsed = readPixCode(code) as { type?: string; url?: string; urlRec?: string };
    expect(parsed).toMatchObject({ type: 'DYNAMIC', url: 'pix.bank.example/cob/9', urlRec: 'pix.bank.example/rec/42' });
  });

  it('refuses a tampered code (CRC16)', () => {
    const code = recurrencePixCode({ merchantName: 'Loja', merchantCity: 'Recife', recurrenceUrl: 'pix.bank.example/rec/42' });
    const tampered = code.replace('LOJA', 'LOJB');
    expect(readPixCode(tampered)).toHaveProperty('error', true);
  });

  it('renders the code as a PNG data URI', () => {
    const uri = qrCodeDataUri('000201...');
    expect(uri).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(uri.split(',')[1], 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('immediate charge Pix codes (cash-in)', () => {
  it('is a dynamic code pointing at the charge location, with a valid CRC and no recurrence', () => {
    const code = immediatePaymentPixCode({ merchantName: 'Açaí da Praça', merchantCity: 'São Paulo', paymentUrl: 'https://pix.bank.example/qr/v2/abc' });
    const parsed = readPixCode(code) as { type?: string; url?: string; urlRec?: string; merchantName?: string };
    expect(parsed).toMatchObject({ type: 'DYNAMIC', url: 'pix.bank.example/qr/v2/abc', merchantName: 'ACAI DA PRACA' });
    expect(parsed.urlRec).toBeUndefined();
  });

  it('keeps each rendered image while it is kept, and renders codes it let go again', () => {
    const images = new QrCodeImages(1);
    expect(images.of('000201A')).toBe(qrCodeDataUri('000201A'));
    expect(images.of('000201B')).toBe(qrCodeDataUri('000201B')); // full: started over
    expect(images.of('000201A')).toBe(qrCodeDataUri('000201A'));
  });
});
