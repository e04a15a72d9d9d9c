-- What limits-service sends PostgreSQL for one GET /v2/limits (a primary-key read of the read model), over the
-- limits the POST phases wrote (bench_documents numbers them). The database-only baseline of npm run bench.
\set k random(1, :documents)
SELECT l.document_number, l.limit_type, l.mechanism, l.amount_centavos, l.quantity, l.details, l.created_at, l.updated_at
  FROM bench_documents d JOIN customer_limits l
    ON l.account_id = d.account_id AND l.environment = 'production' AND l.document_number = d.document_number AND l.limit_type = 'cashin'
 WHERE d.i = CAST(:k AS bigint);
