import { AnsweredRequest, BODY_LIMIT, requestLogLine } from './request-log';
import { cursorOf, cursorText, requestLogQueryOf } from './request-log-store';

const answered = (overrides: Partial<AnsweredRequest> = {}): AnsweredRequest => ({
  account_id: 'acc-1',
  environment: 'sandbox',
  key_id: 'key-1',
  received_at: new Date('2026-11-26T12:00:00.000Z'),
  request_id: 'req-1',
  method: 'POST',
  url: '/v2/limits',
  status: 201,
  duration_ms: 12.345,
  idempotency_key: 'idem-1',
  body: { document_number: '52998224725', type: 'cashin', amount: 100 },
  answer: '{"document_number":"52998224725","amount":100}',
  ...overrides,
});

describe('a request log line', () => {
  it('keeps what a success was, and neither of its bodies', () => {
    expect(requestLogLine(answered())).toEqual({
      account_id: 'acc-1',
      environment: 'sandbox',
      at: '2026-11-26T12:00:00.000Z',
      request_id: 'req-1',
      method: 'POST',
      path: '/v2/limits',
      status: 201,
      duration_ms: 12.3,
      idempotency_key: 'idem-1',
      key_id: 'key-1',
      request_body: null,
      response_body: null,
      console_user: null,
    });
  });

  it("keeps a failed request's bodies with secret fields replaced and documents masked", () => {
    const line = requestLogLine(
      answered({
        status: 400,
        body: { document_number: '52998224725', note: 'cpf 529.982.247-25', password: 'hunter2' },
        answer: '{"message":"52998224725 is bad"}',
      }),
    );
    expect(JSON.parse(line.request_body as string)).toEqual({ document_number: '[redacted]', note: 'cpf ***.***.***-25', password: '[redacted]' });
    expect(JSON.parse(line.response_body as string)).toEqual({ message: '*********25 is bad' });
  });

  it('masks documents in the path and its query, and in a body that was not JSON', () => {
    const line = requestLogLine(
      answered({ method: 'GET', url: '/v2/limits?document_number=52998224725', status: 404, body: 'raw 52998224725', answer: 'oops' }),
    );
    expect(line.path).toBe('/v2/limits?document_number=*********25');
    expect(line.request_body).toBe('raw *********25');
    expect(line.response_body).toBe('oops');
  });

  it('cuts a long body', () => {
    const line = requestLogLine(answered({ status: 422, body: { text: 'x'.repeat(3 * BODY_LIMIT) }, answer: undefined }));
    expect(line.request_body).toHaveLength(BODY_LIMIT + 1);
    expect(line.response_body).toBeNull();
  });

  it('has no Idempotency-Key when none was sent', () => {
    expect(requestLogLine(answered({ idempotency_key: undefined })).idempotency_key).toBeNull();
  });
});

describe('a request log query', () => {
  const tenant = { account_id: 'acc-1', environment: 'sandbox' as const };
  const now = new Date('2026-11-26T12:00:00.000Z');
  const of = (query: Record<string, unknown>) => requestLogQueryOf(tenant, query, now, 7);

  it('defaults to the newest 50 of the retention', () => {
    expect(of({})).toEqual({ ok: true, value: { ...tenant, since: new Date('2026-11-19T12:00:00.000Z'), failed: false, limit: 50 } });
  });

  it('takes its filters and a page', () => {
    const cursor = cursorText({ at: new Date('2026-11-26T11:00:00.000Z'), request_id: 'req-9' });
    expect(of({ request_id: 'req-1', failed: 'true', method: 'post', path: '/v2/payout', exclude_key_ids: 'key-a,key-b', limit: '100', cursor })).toEqual({
      ok: true,
      value: {
        ...tenant,
        since: new Date('2026-11-19T12:00:00.000Z'),
        request_id: 'req-1',
        failed: true,
        method: 'POST',
        path: '/v2/payout',
        exclude_key_ids: ['key-a', 'key-b'],
        limit: 100,
        cursor: { at: new Date('2026-11-26T11:00:00.000Z'), request_id: 'req-9' },
      },
    });
  });

  it('refuses what it cannot read, every problem in one answer', () => {
    expect(of({ limit: '0', failed: 'yes', cursor: 'not-a-cursor', path: 'x'.repeat(2049) })).toEqual({
      ok: false,
      refusal: {
        kind: 'validation',
        problems: [
          'query.path must be at most 2048 characters',
          'query.failed must be true or false',
          'query.limit must be a whole number from 1 to 100',
          'query.cursor must be the next_cursor of an earlier page',
        ],
      },
    });
    expect(of({ limit: '101' })).toMatchObject({ ok: false });
    expect(of({ limit: ['1', '2'] })).toMatchObject({ ok: false });
  });

  it('reads back the cursors it gives out, and no other text', () => {
    const cursor = { at: new Date('2026-11-26T11:00:00.123Z'), request_id: 'req|x' };
    expect(cursorOf(cursorText(cursor))).toEqual(cursor);
    expect(cursorOf(Buffer.from('["not a date","r"]').toString('base64url'))).toBeUndefined();
    expect(cursorOf(Buffer.from('{}').toString('base64url'))).toBeUndefined();
  });
});
