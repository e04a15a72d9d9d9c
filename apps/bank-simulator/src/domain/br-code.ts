// Pix copy-and-paste codes (BR Code, EMV TLV) as the spec's examples of dadosQR and pixCopiaECola show them:
// a dynamic charge carries its location in field 26/25; a recurrence carries its own in field 80/25; the
// journey 3 composite QR carries both. CRC16-CCITT (poly 0x1021, init 0xFFFF) closes every code (field 63).
// It stays, apart from pix-utils (which the platform's libs/pix uses): the bank is another party, its encoder is held
// to the BCB document's examples character for character, and the platform reads its codes with pix-utils, so each
// implementation checks the other.

const GUI = '0014br.gov.bcb.pix';

const field = (id: string, value: string): string => {
  if (value.length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** EMV strings are ASCII: accents go, and the name and city are cut to their field limits. */
const ascii = (text: string, max: number): string =>
  text
    .normalize('NFD')
    .replace(/[^\x20-\x7E]/g, '')
    .slice(0, max)
    .trim() || 'N/A';

export function crc16(payload: string): string {
  let crc = 0xffff;
  for (let i = 0; i < payload.length; i++) {
    crc ^= payload.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface BrCodeParts {
  merchantName: string;
  merchantCity: string;
  /** The immediate charge's location (journey 3 or a plain charge). */
  chargeLocation?: string;
  /** The recurrence's location (journeys 2 and 3). */
  recurrenceLocation?: string;
}

export function brCode(parts: BrCodeParts): string {
  const body = [
    field('00', '01'),
    ...(parts.chargeLocation ? [field('01', '12')] : []),
    field('26', parts.chargeLocation ? GUI + field('25', parts.chargeLocation) : GUI),
    field('52', '0000'),
    field('53', '986'),
    field('58', 'BR'),
    field('59', ascii(parts.merchantName, 25)),
    field('60', ascii(parts.merchantCity, 15)),
    field('62', field('05', '***')),
    ...(parts.recurrenceLocation ? [field('80', GUI + field('25', parts.recurrenceLocation))] : []),
  ].join('');
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16(withCrcHeader);
}
