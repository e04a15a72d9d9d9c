import { spawn } from 'node:child_process';

// pdf-parse (PDF.js inside) loads its worker with a dynamic import, which Jest's module sandbox refuses; so tests read
// a PDF's text in a plain Node process beside them.
const EXTRACT = `
const { PDFParse } = require('pdf-parse');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
  const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
  try { process.stdout.write((await parser.getText()).text); } finally { await parser.destroy(); }
});`;

/** The text of a PDF, as a reader would copy it out (pdf-parse). */
export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', EXTRACT], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`pdf-parse failed: ${Buffer.concat(err).toString('utf8')}`)),
    );
    child.stdin.end(pdf);
  });
}
