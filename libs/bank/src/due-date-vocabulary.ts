import {
  ABATEMENT_MODALITIES,
  DueDateDiscount,
  DueDateRule,
  DueDateTerms,
  EARLY_PAYMENT_DISCOUNT_MODALITIES,
  EarlyPaymentDiscountModality,
  FINE_MODALITIES,
  FIXED_DATE_DISCOUNT_MODALITIES,
  FixedDateDiscountModality,
  INTEREST_MODALITIES,
} from '@pixauto/pix';
import { centavosToValor, valorToCentavos } from './vocabulary';
import { CobVValor } from './wire';

// A due-date charge's terms on the BCB wire (CobVValor, calendario): our modality names are BCB's domains in their
// order (multa 1-2, juros 1-8, abatimento 1-2, desconto 1-6), each value two decimals of reais or percent.

/** Our terms → CobVValor. */
export function toCobVValor(terms: DueDateTerms): CobVValor {
  const code = <M>(modalities: readonly M[], modality: M) => modalities.indexOf(modality) + 1;
  const d = terms.discount;
  return {
    original: centavosToValor(terms.amount_centavos),
    ...(terms.fine && { multa: { modalidade: code(FINE_MODALITIES, terms.fine.modality) as 1 | 2, valorPerc: centavosToValor(terms.fine.value) } }),
    ...(terms.interest && {
      juros: {
        modalidade: code(INTEREST_MODALITIES, terms.interest.modality) as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8,
        valorPerc: centavosToValor(terms.interest.value),
      },
    }),
    ...(terms.abatement && {
      abatimento: { modalidade: code(ABATEMENT_MODALITIES, terms.abatement.modality) as 1 | 2, valorPerc: centavosToValor(terms.abatement.value) },
    }),
    ...(d && {
      desconto:
        'fixed_dates' in d
          ? {
              modalidade: code(FIXED_DATE_DISCOUNT_MODALITIES, d.modality) as 1 | 2,
              descontoDataFixa: d.fixed_dates.map((f) => ({ data: f.date, valorPerc: centavosToValor(f.value) })),
            }
          : { modalidade: (code(EARLY_PAYMENT_DISCOUNT_MODALITIES, d.modality) + 2) as 3 | 4 | 5 | 6, valorPerc: centavosToValor(d.value) },
    }),
  };
}

/** CobVValor and calendario → our terms; undefined when a modality or value is not the BCB's. */
export function fromCobVValor(calendario: { dataDeVencimento: string; validadeAposVencimento?: number }, valor: CobVValor): DueDateTerms | undefined {
  const amount = valorToCentavos(valor.original);
  if (amount === undefined) return undefined;
  const rule = <M>(modalities: readonly M[], r: { modalidade: number; valorPerc: string } | undefined): DueDateRule<M> | null | undefined => {
    if (!r) return null;
    const modality = modalities[r.modalidade - 1];
    const value = valorToCentavos(r.valorPerc);
    return modality === undefined || value === undefined ? undefined : { modality, value };
  };
  const fine = rule(FINE_MODALITIES, valor.multa);
  const interest = rule(INTEREST_MODALITIES, valor.juros);
  const abatement = rule(ABATEMENT_MODALITIES, valor.abatimento);
  const discount = discountOf(valor.desconto);
  if (fine === undefined || interest === undefined || abatement === undefined || discount === undefined) return undefined;
  return {
    amount_centavos: amount,
    due_date: calendario.dataDeVencimento,
    days_valid_after_due: calendario.validadeAposVencimento ?? 30,
    fine,
    interest,
    discount,
    abatement,
  };
}

function discountOf(desconto: CobVValor['desconto']): DueDateDiscount | null | undefined {
  if (!desconto) return null;
  if ('descontoDataFixa' in desconto) {
    const modality: FixedDateDiscountModality | undefined = FIXED_DATE_DISCOUNT_MODALITIES[desconto.modalidade - 1];
    const fixed = desconto.descontoDataFixa.map((f) => ({ date: f.data, value: valorToCentavos(f.valorPerc) }));
    if (!modality || fixed.some((f) => f.value === undefined)) return undefined;
    return { modality, fixed_dates: fixed as { date: string; value: number }[] };
  }
  const modality: EarlyPaymentDiscountModality | undefined = EARLY_PAYMENT_DISCOUNT_MODALITIES[desconto.modalidade - 3];
  const value = valorToCentavos(desconto.valorPerc);
  return modality && value !== undefined ? { modality, value } : undefined;
}
