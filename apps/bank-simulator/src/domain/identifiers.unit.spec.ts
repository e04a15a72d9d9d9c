import { endToEndId, locationUrl, recurrenceId, solicitationId } from './identifiers';

// 2025-06-01 02:30 UTC is still 2025-05-31 in Brasília.
const at = new Date('2025-06-01T02:30:00.000Z');

describe('identifiers follow the spec formation rules', () => {
  it('RecId: R, R|N by the retry policy, ISPB, Brasília date, 11 alphanumerics', () => {
    expect(recurrenceId('12345678', 'PERMITE_3R_7D', at)).toMatch(/^RR1234567820250531[a-zA-Z0-9]{11}$/);
    expect(recurrenceId('12345678', 'NAO_PERMITE', at)).toMatch(/^RN1234567820250531[a-zA-Z0-9]{11}$/);
  });

  it('SolicRecId: SC, ISPB, date, 11 alphanumerics (29)', () => {
    expect(solicitationId('12345678', at)).toMatch(/^SC1234567820250531[a-zA-Z0-9]{11}$/);
  });

  it('EndToEndId: E, the payer ISPB, yyyyMMddHHmm in UTC, 11 alphanumerics (32)', () => {
    expect(endToEndId('87654321', at)).toMatch(/^E87654321202506010230[a-zA-Z0-9]{11}$/);
  });

  it('EndToEndId of a payout: the paying bank is the simulator, so its ISPB; 32 characters, each call its own', () => {
    const id = endToEndId('12345678', at);
    expect(id).toMatch(/^E12345678202506010230[a-zA-Z0-9]{11}$/);
    expect(id).toHaveLength(32);
    expect(endToEndId('12345678', at)).not.toBe(id);
  });

  it('locations are capability URLs', () => {
    expect(locationUrl('127.0.0.1:4010', 'rec')).toMatch(/^127\.0\.0\.1:4010\/qr\/v2\/rec\/[0-9a-f]{32}$/);
    expect(locationUrl('127.0.0.1:4010', 'cob')).toMatch(/^127\.0\.0\.1:4010\/qr\/v2\/[0-9a-f]{32}$/);
  });
});
