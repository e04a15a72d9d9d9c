import { DueDateTerms } from '@pixauto/pix';
import { fromCobVValor, toCobVValor } from './due-date-vocabulary';

// A due-date charge's terms go to the bank as BCB's modality codes and come back the same.

const terms: DueDateTerms = {
  amount_centavos: 15050,
  due_date: '2026-12-10',
  days_valid_after_due: 15,
  fine: { modality: 'PERCENTAGE', value: 200 },
  interest: { modality: 'PERCENT_PER_MONTH_BUSINESS_DAYS', value: 100 },
  discount: { modality: 'PERCENTAGE_UNTIL_DATE', fixed_dates: [{ date: '2026-12-01', value: 500 }] },
  abatement: { modality: 'FIXED_AMOUNT', value: 1000 },
};

describe('due-date terms on the BCB wire', () => {
  it("writes BCB's codes and two-decimal values", () => {
    expect(toCobVValor(terms)).toEqual({
      original: '150.50',
      multa: { modalidade: 2, valorPerc: '2.00' },
      juros: { modalidade: 7, valorPerc: '1.00' },
      abatimento: { modalidade: 1, valorPerc: '10.00' },
      desconto: { modalidade: 2, descontoDataFixa: [{ data: '2026-12-01', valorPerc: '5.00' }] },
    });
    expect(toCobVValor({ ...terms, discount: { modality: 'PERCENT_PER_BUSINESS_DAY_EARLY', value: 10 } }).desconto).toEqual({
      modalidade: 6,
      valorPerc: '0.10',
    });
  });

  it('reads back what it wrote, and nothing that is not a BCB modality', () => {
    const calendario = { dataDeVencimento: terms.due_date, validadeAposVencimento: terms.days_valid_after_due };
    expect(fromCobVValor(calendario, toCobVValor(terms))).toEqual(terms);
    const early = { ...terms, discount: { modality: 'AMOUNT_PER_CALENDAR_DAY_EARLY' as const, value: 25 }, fine: null };
    expect(fromCobVValor(calendario, toCobVValor(early))).toEqual(early);
    expect(fromCobVValor(calendario, { original: '1.00', juros: { modalidade: 9 as 8, valorPerc: '1.00' } })).toBeUndefined();
    expect(fromCobVValor(calendario, { original: '1,00' })).toBeUndefined();
  });
});
