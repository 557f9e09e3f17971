// Dollars for people to read, in reports and CLI summaries: -$1,234.50. Files meant for programs (CSV, JSON) keep
// plain decimal strings (formatCents).
import { formatCents } from '../core/money.js';

export function formatUsd(cents: number): string {
  const [whole, fraction] = formatCents(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}$${Number(whole).toLocaleString('en-US')}.${fraction}`;
}
