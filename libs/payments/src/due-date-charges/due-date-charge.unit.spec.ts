import { DueDateChargeRecordData } from '@pixauto/contracts';
import { notFound, validation } from '@pixauto/errors';
import { fold } from '@pixauto/event-store';
import { DeciderSpecification } from '@pixauto/event-store/testing';
import { dueDateCharge, DueDateChargeEvent } from './due-date-charge';

// The due-date charge's rules (docs/decisions/due-date-charges.md), given its past events, when a command, then
// events or a refusal.

const pending: DueDateChargeRecordData = {
  id: 3,
  transaction_id: 'boleto-3',
  status: 'PENDING',
  provider: 'PROVIDER_A',
  amount_centavos: 10000,
  due_date: '2026-12-10', // a Thursday
  days_valid_after_due: 5, // up to Tuesday 2026-12-15
  fine: { modality: 'PERCENTAGE', value: 200 },
  interest: { modality: 'PERCENT_PER_MONTH_CALENDAR_DAYS', value: 300 },
  discount: { modality: 'FIXED_AMOUNT_UNTIL_DATE', fixed_dates: [{ date: '2026-12-05', value: 500 }] },
  abatement: null,
  payer: { document_number: '12ABC34501DE35', name: 'Loja Alfa Ltda', email: null, street: null, city: null, state: null, postal_code: null },
  description: 'Mensalidade dezembro',
  webhook: null,
  pix_copy_paste: '00020101021226...',
  revision: 0,
  created_at: '2026-12-01T12:00:00.000Z',
  updated_at: '2026-12-01T12:00:00.000Z',
  paid_at: null,
  paid: null,
  bank: { txid: 'PIXAUTOVS00000000000000000003', location: '127.0.0.1:4010/qr/v2/cobv/abc' },
  e2e_id: null,
};

const at = '2026-12-02T15:00:00.000Z';
const created: DueDateChargeEvent = { type: 'due_date_charge.created', data: { charge: pending } };
const cancelledCharge: DueDateChargeRecordData = { ...pending, status: 'CANCELLED', pix_copy_paste: null, updated_at: at };
const cancelled: DueDateChargeEvent = { type: 'due_date_charge.cancelled', data: { charge: cancelledCharge } };
const payment = (day: string) => ({ paid_at: `${day}T15:00:00.000Z`, day, e2e_id: 'E87654321202612101500abcdefghijk' });
const paidOn = (day: string, paid: DueDateChargeRecordData['paid']): DueDateChargeEvent => ({
  type: 'due_date_charge.paid',
  data: {
    charge: {
      ...pending,
      status: 'PAID',
      paid_at: `${day}T15:00:00.000Z`,
      updated_at: `${day}T15:00:00.000Z`,
      e2e_id: payment(day).e2e_id,
      paid,
      pix_copy_paste: null,
    },
  },
});
const expiredCharge: DueDateChargeRecordData = { ...pending, status: 'EXPIRED', pix_copy_paste: null, updated_at: '2026-12-16T03:00:00.000Z' };
const expired: DueDateChargeEvent = { type: 'due_date_charge.expired', data: { charge: expiredCharge } };

const given = DeciderSpecification.for(dueDateCharge);
const NOT_FOUND = notFound('due-date charge not found');

describe('due-date charge: creation', () => {
  it('creates a PENDING charge at revision 0, carrying the whole record', () => {
    given()
      .when({ type: 'CreateDueDateCharge', charge: { ...pending, revision: 7 } })
      .then([created]);
    expect(fold(dueDateCharge, [created])).toEqual({ status: 'PENDING', charge: pending });
  });

  it('refuses a second charge with the same transaction_id, whatever became of the first', () => {
    for (const history of [[created], [created, cancelled], [created, expired]])
      given(...history)
        .when({ type: 'CreateDueDateCharge', charge: { ...pending, id: 4 } })
        .thenRefuses(validation('body.transaction_id already exists'));
  });

  it('knows no charge that was never created', () => {
    given().when({ type: 'CancelDueDateCharge', at }).thenRefuses(NOT_FOUND);
    given()
      .when({ type: 'ChangeDueDateCharge', changes: { amount_centavos: 1 }, today: '2026-12-02', at })
      .thenRefuses(NOT_FOUND);
    given().when({ type: 'CheckPayable', today: '2026-12-02' }).thenRefuses(NOT_FOUND);
    given()
      .when({ type: 'RecordPayment', payment: payment('2026-12-02') })
      .thenRefuses(NOT_FOUND);
    given().when({ type: 'ExpireDueDateCharge', today: '2026-12-20', at }).thenRefuses(NOT_FOUND);
  });
});

describe('due-date charge: changes while PENDING', () => {
  it('changes the terms given, keeps the others and its code, and counts the revision', () => {
    const changed: DueDateChargeRecordData = { ...pending, amount_centavos: 12000, due_date: '2026-12-17', fine: null, revision: 1, updated_at: at };
    given(created)
      .when({ type: 'ChangeDueDateCharge', changes: { amount_centavos: 12000, due_date: '2026-12-17', fine: null }, today: '2026-12-02', at })
      .then([{ type: 'due_date_charge.changed', data: { charge: changed } }]);
  });

  it('refuses terms that no longer hold together once changed, every problem at once', () => {
    given(created)
      .when({ type: 'ChangeDueDateCharge', changes: { due_date: '2026-12-01', amount_centavos: 500 }, today: '2026-12-02', at })
      .thenRefuses(
        validation(
          'body.due_date must be today or later',
          "body.discount.fixed_dates[].value must be less than the charge's amount",
          'body.discount.fixed_dates[].date must not be after body.due_date',
        ),
      );
  });

  it('changes and cancels only a PENDING charge; cancelling again answers it unchanged', () => {
    given(created).when({ type: 'CancelDueDateCharge', at }).then([cancelled]);
    given(created, cancelled).when({ type: 'CancelDueDateCharge', at }).then([]);
    given(created, cancelled)
      .when({ type: 'ChangeDueDateCharge', changes: { amount_centavos: 1 }, today: '2026-12-02', at })
      .thenRefuses(validation('the due-date charge is CANCELLED: only a PENDING charge can be changed'));
    given(created, paidOn('2026-12-04', null))
      .when({ type: 'CancelDueDateCharge', at })
      .thenRefuses(validation('the due-date charge is PAID: only a PENDING charge can be cancelled'));
    given(created, expired)
      .when({ type: 'CancelDueDateCharge', at })
      .thenRefuses(validation('the due-date charge is EXPIRED: only a PENDING charge can be cancelled'));
  });
});

describe('due-date charge: payment and expiry', () => {
  it('records the amount of the day paid: the discount before the due date, the fine and interest after it', () => {
    given(created)
      .when({ type: 'RecordPayment', payment: payment('2026-12-04') })
      .then([paidOn('2026-12-04', { day: '2026-12-04', original: 10000, abatement: 0, discount: 500, fine: 0, interest: 0, final: 9500 })]);
    given(created)
      .when({ type: 'RecordPayment', payment: payment('2026-12-10') })
      .then([paidOn('2026-12-10', { day: '2026-12-10', original: 10000, abatement: 0, discount: 0, fine: 0, interest: 0, final: 10000 })]);
    // Five days late: 2% fine, 3% a month for 5 days = 0.5%.
    given(created)
      .when({ type: 'RecordPayment', payment: payment('2026-12-15') })
      .then([paidOn('2026-12-15', { day: '2026-12-15', original: 10000, abatement: 0, discount: 0, fine: 200, interest: 50, final: 10250 })]);
  });

  it('records a payment once, and money that reached a charge as it expired', () => {
    const paid = paidOn('2026-12-04', { day: '2026-12-04', original: 10000, abatement: 0, discount: 500, fine: 0, interest: 0, final: 9500 });
    given(created, paid)
      .when({ type: 'RecordPayment', payment: payment('2026-12-05') })
      .then([]);
    given(created, expired)
      .when({ type: 'RecordPayment', payment: payment('2026-12-16') })
      .then([paidOn('2026-12-16', { day: '2026-12-15', original: 10000, abatement: 0, discount: 0, fine: 200, interest: 50, final: 10250 })]);
  });

  it('lets the payer pay a PENDING charge up to its last payable day only', () => {
    given(created).when({ type: 'CheckPayable', today: '2026-12-15' }).then([]);
    given(created)
      .when({ type: 'CheckPayable', today: '2026-12-16' })
      .thenRefuses(validation('the due-date charge could be paid until 2026-12-15: it can no longer be paid'));
    given(created, cancelled)
      .when({ type: 'CheckPayable', today: '2026-12-02' })
      .thenRefuses(validation('the due-date charge is CANCELLED: only a PENDING charge can be paid'));
  });

  it('expires a PENDING charge once its last payable day has passed, and nothing else', () => {
    given(created).when({ type: 'ExpireDueDateCharge', today: '2026-12-15', at }).then([]);
    given(created).when({ type: 'ExpireDueDateCharge', today: '2026-12-16', at: expiredCharge.updated_at }).then([expired]);
    given(created, cancelled).when({ type: 'ExpireDueDateCharge', today: '2026-12-16', at }).then([]);
    given(created, expired).when({ type: 'ExpireDueDateCharge', today: '2026-12-17', at }).then([]);
  });
});
