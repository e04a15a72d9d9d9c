// Identifiers by the spec's formation rules (RecId, SolicRecId, EndToEndId), with a random sequential part.
import { randomBytes, randomInt } from 'node:crypto';
import type { PoliticaRetentativa } from '@pixauto/bank';
import { brasiliaDate } from '@pixauto/pix';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const sequential = (length: number): string => Array.from({ length }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join('');
const yyyyMMdd = (at: Date): string => brasiliaDate(at).replace(/-/g, '');

/** RecId: "R" + R|N (retries allowed or not) + ISPB + yyyyMMdd + 11 alphanumerics = 29 characters. */
export const recurrenceId = (ispb: string, politica: PoliticaRetentativa, at: Date): string =>
  `R${politica === 'PERMITE_3R_7D' ? 'R' : 'N'}${ispb}${yyyyMMdd(at)}${sequential(11)}`;

/** SolicRecId: "SC" + ISPB + yyyyMMdd + 11 alphanumerics = 29 characters. */
export const solicitationId = (ispb: string, at: Date): string => `SC${ispb}${yyyyMMdd(at)}${sequential(11)}`;

/** EndToEndId: "E" + the payer's ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 characters. */
export const endToEndId = (payerIspb: string, at: Date): string => `E${payerIspb}${at.toISOString().slice(0, 16).replace(/[-T:]/g, '')}${sequential(11)}`;

/** A location's capability URL, as the spec writes them: host/qr/v2/[rec/]<32 hex>. */
export const locationUrl = (publicHost: string, kind: 'rec' | 'cob'): string =>
  `${publicHost}/qr/v2/${kind === 'rec' ? 'rec/' : ''}${randomBytes(16).toString('hex')}`;

/** RtrId (a refund's pacs.004 ReturnIdentification): "D" + the returning ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 characters. */
export const returnId = (ispb: string, at: Date): string => `D${endToEndId(ispb, at).slice(1)}`;
