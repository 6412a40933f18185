import { periodLabel, type Invoice } from '../../../domain/billing';
import type { InvoiceSeller } from '../../../domain/platform-settings';

// An invoice as a one-page A4 PDF (pdfkit, its built-in Helvetica: no font files of ours). pdfkit
// is loaded on the first download, not at start-up.

export type InvoicePdfInput = {
  invoice: Invoice;
  billTo: { name: string; email: string | null; address: string | null };
  /** Who issues it (platform settings): name, address, tax number, and how to pay. */
  seller: InvoiceSeller;
};

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

const money = (value: number, currency: string) => (currency === 'USD' ? usd.format(value) : `${value.toFixed(2)} ${currency}`);
const dayOf = (iso: string | null) => (iso ? day.format(new Date(iso)) : '—');

/** The file name a download gets: 'INV-202610-000012.pdf' (the number holds letters, digits and dashes only). */
export function invoiceFileName(number: string): string {
  return `${number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
}

export async function renderInvoicePdf({ invoice, billTo, seller }: InvoicePdfInput): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Invoice ${invoice.number}`, Author: seller.name, Subject: `Invoice ${invoice.number} for ${billTo.name}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;

  // Header: who issues it, and what it is.
  doc.font('Helvetica-Bold').fontSize(16).fillColor('#1a1b1e').text(seller.name, left, 50, { width: width * 0.6 });
  doc.font('Helvetica').fontSize(9).fillColor('#555');
  let sellerY = doc.y + 2;
  for (const line of [...(seller.address?.split('\n') ?? []), seller.taxNumber ? `Tax number: ${seller.taxNumber}` : null].filter((v): v is string => !!v)) {
    doc.text(line, left, sellerY, { width: width * 0.6 });
    sellerY = doc.y + 1;
  }
  doc.font('Helvetica-Bold').fontSize(18).fillColor('#1a1b1e').text('INVOICE', left, 50, { width, align: 'right' });
  doc.font('Helvetica').fontSize(10).fillColor('#333').text(invoice.number, left, 74, { width, align: 'right' });

  // Status stamp.
  const status = invoice.status === 'paid' ? 'PAID' : invoice.status === 'void' ? 'VOID' : invoice.isOverdue ? 'OVERDUE' : 'DUE';
  const stampColour = invoice.status === 'paid' ? '#2b8a3e' : invoice.status === 'void' ? '#495057' : invoice.isOverdue ? '#c92a2a' : '#d9480f';
  doc.font('Helvetica-Bold').fontSize(12).fillColor(stampColour).text(status, left, 92, { width, align: 'right' });

  // Bill to, and the dates.
  let y = Math.max(130, sellerY + 15);
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#1a1b1e').text('Bill to', left, y);
  doc.font('Helvetica').fontSize(10).fillColor('#333');
  doc.text(billTo.name, left, y + 15, { width: width / 2 });
  let billY = y + 30;
  for (const line of [billTo.address, billTo.email].filter((v): v is string => !!v)) {
    doc.text(line, left, billY, { width: width / 2 - 10 });
    billY = doc.y + 2;
  }

  const facts: [string, string][] = [
    ['Issued', dayOf(invoice.issuedAt)],
    ['Due', dayOf(invoice.dueAt)],
    ['Period', invoice.periodKey ? periodLabel(invoice.periodKey) : '—'],
    ['Plan', invoice.planName ?? '—'],
  ];
  if (invoice.status === 'paid') facts.push(['Paid', `${dayOf(invoice.paidAt)}${invoice.paymentMethod ? ` (${invoice.paymentMethod === 'stripe' ? 'card, Stripe' : 'by hand'})` : ''}`]);
  let factY = y;
  for (const [label, value] of facts) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#1a1b1e').text(label, left + width / 2, factY, { width: 80 });
    doc.font('Helvetica').fillColor('#333').text(value, left + width / 2 + 80, factY, { width: width / 2 - 80 });
    factY += 15;
  }

  // Line items.
  y = Math.max(billY, factY) + 25;
  const columns = { description: left, quantity: left + width * 0.55, unit: left + width * 0.68, amount: left + width * 0.84 };
  doc.rect(left, y - 5, width, 20).fill('#f1f3f5');
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#1a1b1e');
  doc.text('Description', columns.description + 5, y, { width: width * 0.55 - 10 });
  doc.text('Qty', columns.quantity, y, { width: width * 0.13 - 5, align: 'right' });
  doc.text('Unit price', columns.unit, y, { width: width * 0.16 - 5, align: 'right' });
  doc.text('Amount', columns.amount, y, { width: width * 0.16 - 5, align: 'right' });
  y += 22;
  doc.font('Helvetica').fillColor('#333');
  for (const item of invoice.lineItems) {
    doc.text(item.description, columns.description + 5, y, { width: width * 0.55 - 10 });
    const rowBottom = doc.y;
    doc.text(String(item.quantity), columns.quantity, y, { width: width * 0.13 - 5, align: 'right' });
    doc.text(money(item.unitAmount, invoice.currency), columns.unit, y, { width: width * 0.16 - 5, align: 'right' });
    doc.text(money(item.amount, invoice.currency), columns.amount, y, { width: width * 0.16 - 5, align: 'right' });
    y = Math.max(rowBottom, doc.y) + 8;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor('#ced4da').stroke();
  y += 10;

  const totals: [string, string][] = [
    ['Total', money(invoice.amountDue, invoice.currency)],
    ['Paid', money(invoice.amountPaid, invoice.currency)],
    ['Balance due', money(invoice.status === 'void' ? 0 : Math.max(0, invoice.amountDue - invoice.amountPaid), invoice.currency)],
  ];
  for (const [label, value] of totals) {
    const isBalance = label === 'Balance due';
    doc.font(isBalance ? 'Helvetica-Bold' : 'Helvetica').fontSize(isBalance ? 12 : 10).fillColor('#1a1b1e');
    doc.text(label, columns.unit - 40, y, { width: width * 0.16 + 35, align: 'right' });
    doc.text(value, columns.amount, y, { width: width * 0.16 - 5, align: 'right' });
    y += isBalance ? 20 : 15;
  }

  // Footer.
  y += 25;
  doc.font('Helvetica').fontSize(9).fillColor('#555');
  doc.text(`All amounts in ${invoice.currency}. ${invoice.status === 'open' ? `Please pay by ${dayOf(invoice.dueAt)}, quoting ${invoice.number}.` : ''}`, left, y, { width });
  if (invoice.paymentRef && invoice.status === 'paid') doc.text(`Payment reference: ${invoice.paymentRef}`, left, doc.y + 4, { width });
  if (seller.paymentInstructions && invoice.status !== 'void') {
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#1a1b1e').text('How to pay', left, doc.y + 12, { width });
    doc.font('Helvetica').fontSize(9).fillColor('#333').text(seller.paymentInstructions, left, doc.y + 4, { width });
  }

  doc.end();
  return done;
}
