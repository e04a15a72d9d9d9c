/**
 * A valid alphanumeric CNPJ (the form issued since July 2026) from any 12 capitals and digits: each character counts
 * as its ASCII code minus 48, with the numeric CNPJ's weights. Written apart from @pixauto/pix's validator, so a test
 * that uses it checks that validator against a second reading of Receita Federal's rule.
 */
export function alphanumericCnpj(base: string): string {
  const weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const check = (values: number[]) => {
    const sum = values.reduce((acc, v, i) => acc + v * weights.slice(13 - values.length)[i], 0);
    return sum % 11 < 2 ? 0 : 11 - (sum % 11);
  };
  const values = Array.from(base, (c) => c.charCodeAt(0) - 48);
  values.push(check(values));
  values.push(check(values));
  return base + values.slice(12).join('');
}
