import { describe, expect, it } from '@jest/globals';
import { problemsAbove, problemsByField } from './api';
import { inFormWords } from './forms';

describe("an API refusal in the form's words", () => {
  const refusal = { type: 'ValidationError', message: 'body.debtor.name is a required field. body.amount must be positive. body.debtor must be an object' };

  it("names the field by its label, without the label's parenthesised note", () => {
    const byField = problemsByField(refusal);
    expect(inFormWords(byField['debtor.name'][0], "Payer's name")).toBe("Payer's name is a required field");
    expect(inFormWords(byField.amount[0], 'Amount of each charge (R$)')).toBe('Amount of each charge must be positive');
    expect(inFormWords('`start_date` must be a date', 'First charge on')).toBe('`start_date` must be a date');
  });

  it('keeps above the form every problem no field of it shows', () => {
    const byField = problemsByField(refusal);
    expect(problemsAbove(byField, ['debtor.name', 'amount'])).toBe('body.debtor must be an object');
    expect(problemsAbove(byField, ['debtor.name', 'amount', 'debtor'])).toBeUndefined();
  });
});
