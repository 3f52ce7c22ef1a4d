/** A number typed in a form: "2,5" is read as 2.5 (a decimal comma is as good as a point); blank is NaN. */
export function parseDecimal(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed.replace(',', '.'));
}
