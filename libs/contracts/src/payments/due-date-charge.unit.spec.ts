import fc from 'fast-check';
import { validation } from '@pixauto/errors';
import { addDays } from '@pixauto/pix';
import { dueDateChargeResponse, DueDateChargeRecordData, validateChangeDueDateCharge, validateCreateDueDateCharge } from './due-date-charge';

// POST and PATCH /v2/cobv: every field's message, the terms judged together, the defaults, and the answer's amount of the day.

const TODAY = '2026-12-01';
const body = (extra: Record<string, unknown> = {}) => ({
  transaction_id: 'boleto-1',
  amount: 100,
  due_date: '2026-12-10',
  payer: { document_number: '52998224725', name: 'Maria Silva' },
  ...extra,
});
const refused = (...messages: string[]) => ({ ok: false, refusal: validation(...messages) });

describe('validateCreateDueDateCharge', () => {
  it('applies the defaults and reads values in hundredths', () => {
    expect(validateCreateDueDateCharge(body({ fine: { modality: 'PERCENTAGE', value: 2.5 } }), TODAY)).toEqual({
      ok: true,
      value: {
        transaction_id: 'boleto-1',
        amount_centavos: 10000,
        due_date: '2026-12-10',
        days_valid_after_due: 30,
        payer: { document_number: '52998224725', name: 'Maria Silva', email: null, street: null, city: null, state: null, postal_code: null },
        fine: { modality: 'PERCENTAGE', value: 250 },
        interest: null,
        discount: null,
        abatement: null,
        webhook: null,
        description: null,
      },
    });
  });

  it('refuses unknown fields, nested ones by their path', () => {
    expect(validateCreateDueDateCharge(body({ fine: { modality: 'PERCENTAGE', value: 2, cap: 1 } }), TODAY)).toEqual(
      refused('`fine.cap` is not a field of this endpoint'),
    );
  });

  it.each([
    [{ due_date: undefined }, 'body.due_date is a required field'],
    [{ due_date: '10/12/2026' }, 'body.due_date must be YYYY-MM-DD'],
    [{ days_valid_after_due: -1 }, 'body.days_valid_after_due must be an integer between 0 and 3650'],
    [{ payer: { document_number: '52998224725', name: 'M', state: 'sp' } }, 'body.payer.state must be a Brazilian state as two capital letters (SP)'],
    [{ payer: { document_number: '52998224725', name: 'M', postal_code: '13010-000' } }, 'body.payer.postal_code must be a CEP of 8 digits'],
    [{ fine: 2 }, 'body.fine must be an object'],
    [{ interest: { modality: 'PERCENT_PER_DAY_CALENDAR_DAYS', value: 0 } }, 'body.interest.value must be a positive number with at most 2 decimal places'],
    [{ abatement: { modality: 'HALF', value: 1 } }, 'body.abatement.modality must be one of the following values: FIXED_AMOUNT, PERCENTAGE'],
    [{ discount: { modality: 'PERCENTAGE_UNTIL_DATE', value: 1 } }, 'body.discount.value is not taken by this modality: send fixed_dates'],
    [{ discount: { modality: 'PERCENTAGE_UNTIL_DATE' } }, 'body.discount.fixed_dates must hold 1 to 3 dates with their values'],
    [{ discount: { modality: 'PERCENTAGE_UNTIL_DATE', fixed_dates: [null] } }, 'body.discount.fixed_dates must hold 1 to 3 dates with their values'],
    [
      { discount: { modality: 'PERCENTAGE_UNTIL_DATE', fixed_dates: [{ date: '2026-12-31', value: 1 }] } },
      'body.discount.fixed_dates[].date must not be after body.due_date',
    ],
    [
      {
        discount: {
          modality: 'FIXED_AMOUNT_UNTIL_DATE',
          fixed_dates: [
            { date: '2026-12-05', value: 1 },
            { date: '2026-12-05', value: 2 },
          ],
        },
      },
      'body.discount.fixed_dates must not repeat a date',
    ],
    [{ discount: { modality: 'AMOUNT_PER_BUSINESS_DAY_EARLY' } }, 'body.discount.value must be a positive number with at most 2 decimal places'],
    [{ abatement: { modality: 'PERCENTAGE', value: 100 } }, 'body.abatement.value must be less than 100 (a percentage)'],
    [{ fine: { modality: 'FIXED_AMOUNT', value: 100.01 } }, "body.fine.value must be at most the charge's amount"],
    [{ interest: { modality: 'PERCENT_PER_YEAR_BUSINESS_DAYS', value: 100.01 } }, 'body.interest.value must be at most 100 (a percentage)'],
    [{ due_date: '2026-11-30' }, 'body.due_date must be today or later'],
    [{ due_date: '2126-11-08' }, 'body.due_date must be at most 36500 days (about 100 years) from today'],
  ])('%j: %s', (extra, message) => {
    expect(validateCreateDueDateCharge(body(extra), TODAY)).toEqual(refused(message));
  });
});

describe('validateChangeDueDateCharge', () => {
  it('takes a cancellation alone, or the fields to change with null removing a rule', () => {
    expect(validateChangeDueDateCharge({ status: 'CANCELLED' })).toEqual({ ok: true, value: { type: 'cancel' } });
    expect(validateChangeDueDateCharge({ amount: 80.5, fine: null })).toEqual({
      ok: true,
      value: { type: 'change', changes: { amount_centavos: 8050, fine: null } },
    });
    expect(validateChangeDueDateCharge({ status: 'CANCELLED', amount: 1 })).toEqual(
      refused('body.status cancels the charge: send it alone, without other changes'),
    );
    expect(validateChangeDueDateCharge({ status: 'PAID' })).toEqual(refused('body.status must be CANCELLED'));
    expect(validateChangeDueDateCharge({})).toEqual(refused('the request changes nothing: send at least one field to change'));
    expect(validateChangeDueDateCharge({ transaction_id: 'x' })).toEqual(refused('`transaction_id` is not a field of this endpoint'));
  });
});

describe('dueDateChargeResponse', () => {
  it('shows what is owed on the day asked while PENDING, and what was paid once PAID, in reais', () => {
    const request = validateCreateDueDateCharge(
      body({ fine: { modality: 'FIXED_AMOUNT', value: 2 }, discount: { modality: 'AMOUNT_PER_CALENDAR_DAY_EARLY', value: 0.5 } }),
      TODAY,
    );
    if (!request.ok) throw new Error('valid');
    const record: DueDateChargeRecordData = {
      ...request.value,
      id: 1,
      status: 'PENDING',
      provider: 'PROVIDER_A',
      pix_copy_paste: '000201',
      revision: 0,
      created_at: '2026-12-01T12:00:00.000Z',
      updated_at: '2026-12-01T12:00:00.000Z',
      paid_at: null,
      paid: null,
      bank: { txid: 'T', location: 'L' },
      e2e_id: null,
    };
    const response = dueDateChargeResponse(record, '2026-12-07');
    expect(response).toMatchObject({
      amount: 100,
      last_payable_day: '2027-01-11',
      fine: { modality: 'FIXED_AMOUNT', value: 2 },
      discount: { modality: 'AMOUNT_PER_CALENDAR_DAY_EARLY', value: 0.5 },
      amount_due: { date: '2026-12-07', original: 100, abatement: 0, discount: 1.5, fine: 0, interest: 0, final: 98.5 },
      amount_paid: null,
    });
    expect(dueDateChargeResponse({ ...record, status: 'EXPIRED' }, '2026-12-07').amount_due).toBeNull();
  });
});

describe('hostile requests', () => {
  // Whatever comes, validation answers (never throws), and a charge it accepts can be shown on every day of its life.
  const value = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(0.01, 99.99, 100, 100.01, 9999999999.99, 1e21, -1),
    fc.string(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const date = fc.oneof(
    fc.integer({ min: -3, max: 40_000 }).map((n) => addDays(TODAY, n)),
    fc.constantFrom('2026-02-30', '9999-12-31', '', 'x'),
  );
  const modality = fc.constantFrom(
    'FIXED_AMOUNT',
    'PERCENTAGE',
    'AMOUNT_PER_CALENDAR_DAY',
    'PERCENT_PER_YEAR_BUSINESS_DAYS',
    'FIXED_AMOUNT_UNTIL_DATE',
    'PERCENTAGE_UNTIL_DATE',
    'PERCENT_PER_CALENDAR_DAY_EARLY',
    'X',
  );
  const rule = fc.oneof(
    fc.constant(undefined),
    value,
    fc.record({ modality, value }, { requiredKeys: [] }),
    fc.record({ modality, fixed_dates: fc.oneof(value, fc.array(fc.oneof(value, fc.record({ date, value })), { maxLength: 4 })) }, { requiredKeys: [] }),
  );
  const request = fc.record({
    amount: value,
    due_date: date,
    days_valid_after_due: fc.oneof(value, fc.integer({ min: 0, max: 3650 })),
    fine: rule,
    interest: rule,
    discount: rule,
    abatement: rule,
  });

  it('are answered, and what is accepted can be shown on every day', () => {
    fc.assert(
      fc.property(request, (extra) => {
        const checked = validateCreateDueDateCharge(body(Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined))), TODAY);
        if (!checked.ok) return;
        const record = {
          ...checked.value,
          id: 1,
          status: 'PENDING' as const,
          provider: 'P',
          pix_copy_paste: 'c',
          revision: 0,
          created_at: 't',
          updated_at: 't',
          paid_at: null,
          paid: null,
          bank: { txid: 't', location: 'l' },
          e2e_id: null,
        };
        const last = dueDateChargeResponse(record, TODAY).last_payable_day;
        for (const day of [TODAY, checked.value.due_date, addDays(checked.value.due_date, 1), last, addDays(last, 1)]) dueDateChargeResponse(record, day);
      }),
      { numRuns: 400 },
    );
  });
});
