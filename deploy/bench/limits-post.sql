-- What limits-service sends PostgreSQL for one POST /v2/limits: read the stream, then the one append statement
-- (version guard, event, outbox row, read model). pgbench runs it as the database-only baseline of npm run bench.
-- Stream ids are built with chr(58): pgbench would read ':word' inside a string literal as one of its variables.
\set n random(1, 9000000000000)
SELECT position, event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at
  FROM events WHERE stream_id = concat_ws(chr(58), 'customer_limit', 'pgbench', 'production', CAST(:n AS text), 'cashin') ORDER BY version;
WITH guard AS (SELECT event_store_expect_version(concat_ws(chr(58), 'customer_limit', 'pgbench', 'production', CAST(:n AS text), 'cashin'), 0) AS at),
  appended AS (
    INSERT INTO events (event_id, stream_id, stream_type, version, type, data, account_id, environment, occurred_at)
    SELECT gen_random_uuid(), concat_ws(chr(58), 'customer_limit', 'pgbench', 'production', CAST(:n AS text), 'cashin'), 'customer_limit', 1, 'customer_limit.created',
           jsonb_build_object('document_number', CAST(:n AS text), 'limit_type', 'cashin', 'mechanism', 'amount', 'amount_centavos', 15050, 'quantity', null, 'details', null),
           'pgbench', 'production', now()
      FROM guard
    RETURNING position, version, event_id, data),
  published AS (
    INSERT INTO outbox (topic, message_key, payload, headers)
    SELECT 'pixauto.limits.events.v1', concat_ws(chr(58), 'customer_limit', 'pgbench', 'production', CAST(:n AS text), 'cashin'),
           jsonb_build_object('event_id', event_id, 'type', 'customer_limit.created', 'version', version, 'data', data), '{}'::jsonb
      FROM appended),
  read_model_0 AS (
    INSERT INTO customer_limits AS l (account_id, environment, document_number, limit_type, mechanism, amount_centavos, quantity, details, version, created_at, updated_at)
    VALUES ('pgbench', 'production', CAST(:n AS text), 'cashin', 'amount', 15050, null, null, 1, now(), now())
    ON CONFLICT (account_id, environment, document_number, limit_type) DO UPDATE SET updated_at = EXCLUDED.updated_at WHERE l.version < EXCLUDED.version)
SELECT position::text AS position, version FROM appended;
