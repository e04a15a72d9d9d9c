/** Has the browser save what the API answered as a file (a receipt, a CSV export). */
export function saveFile(file: Blob, filename: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

/** A receipt as the API answers it: the PDF in base64, with the name to save it under. */
export interface Receipt {
  pdf: string;
  filename: string;
  content_type: string;
}

export const saveReceipt = (receipt: Receipt): void =>
  saveFile(new Blob([Uint8Array.from(atob(receipt.pdf), (character) => character.charCodeAt(0))], { type: receipt.content_type }), receipt.filename);
