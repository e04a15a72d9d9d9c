import PDFDocument from 'pdfkit';
import { centavosToValor, DestinatarioPagamento, Pessoa } from '@pixauto/bank';
import { PayoutRecord, PayoutReturn, Receiver } from './records';
import { RefundRecord } from './refund';

// The receipts the two providers issue, as one-page PDFs: what was paid or returned, when, by whom to whom, the Pix
// ids, and the provider's name.

/** A receipt: a title, then label and value lines (a null line is a gap). */
export interface Receipt {
  provider: string;
  title: string;
  lines: ([string, string] | null)[];
}

/** A person's document as receipts print it: the middle digits only, as Brazilian banks mask a CPF. */
export function maskedDocument(p: { cpf?: string; cnpj?: string }): string {
  if (p.cpf) return `***.${p.cpf.slice(3, 6)}.${p.cpf.slice(6, 9)}-**`;
  if (p.cnpj) return `${p.cnpj.slice(0, 2)}.${p.cnpj.slice(2, 5)}.${p.cnpj.slice(5, 8)}/${p.cnpj.slice(8, 12)}-${p.cnpj.slice(12)}`;
  return '-';
}

const reais = (centavos: number): string => `R$ ${centavosToValor(centavos).replace('.', ',')}`;
const person = (p: Pessoa | undefined): string => (p ? `${p.nome} (${maskedDocument(p)})` : '-');
const receiverOf = (r: Receiver): string => `${r.nome} (CNPJ ${maskedDocument({ cnpj: r.cnpj })}, ISPB ${r.ispb})`;
const beneficiaryOf = (d: DestinatarioPagamento): string => `${d.nome} (${maskedDocument(d)}, ISPB ${d.ispb})`;

/** A refund of a Pix received: the money goes back to the payer. */
export const pixRefundReceipt = (provider: string, refund: RefundRecord, payer: Pessoa | undefined, receiver: Receiver): Receipt => ({
  provider,
  title: 'Comprovante de devolução Pix',
  lines: [
    ['Valor devolvido', reais(refund.amount)],
    ['Data da devolução', refund.liquidacao ?? refund.solicitacao],
    ['Identificador da devolução (RtrId)', refund.rtrId],
    ['Pix original (EndToEndId)', refund.endToEndId],
    null,
    ['Devolvido a', person(payer)],
    ['Devolvido por', receiverOf(receiver)],
  ],
});

/** A payout the receiving bank sent back: the money returns to the payer (us). */
export const payoutReturnReceipt = (provider: string, payout: PayoutRecord, ret: PayoutReturn, receiver: Receiver): Receipt => ({
  provider,
  title: 'Comprovante de devolução Pix',
  lines: [
    ['Valor devolvido', reais(ret.amount)],
    ['Data da devolução', ret.liquidacao],
    ['Identificador da devolução (RtrId)', ret.rtrId],
    ['Pix original (EndToEndId)', payout.endToEndId],
    null,
    ['Devolvido a', receiverOf(receiver)],
    ['Devolvido por', beneficiaryOf(payout.destinatario)],
  ],
});

/** The proof that a payout was paid. */
export const payoutReceipt = (provider: string, payout: PayoutRecord, receiver: Receiver): Receipt => ({
  provider,
  title: 'Comprovante de Pix enviado',
  lines: [
    ['Valor', reais(payout.amount)],
    ['Data do pagamento', payout.liquidacao ?? payout.solicitacao],
    ['Identificador (EndToEndId)', payout.endToEndId],
    null,
    ['Pago por', receiverOf(receiver)],
    ['Pago a', beneficiaryOf(payout.destinatario)],
    ...(payout.destinatario.chave ? [['Chave Pix', payout.destinatario.chave] as [string, string]] : []),
  ],
});

/** The receipt as a one-page PDF (pdfkit, its standard Helvetica: no font files to ship). */
export function renderReceipt(r: Receipt): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: r.title, Author: r.provider } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(18).text(r.title);
  doc.font('Helvetica').fontSize(10).fillColor('#555').text(`Emitido por ${r.provider}`).moveDown();
  for (const line of r.lines) {
    if (line === null) doc.moveDown();
    else doc.font('Helvetica-Bold').fillColor('#000').text(`${line[0]}: `, { continued: true }).font('Helvetica').text(line[1]);
  }
  doc.end();
  return done;
}
