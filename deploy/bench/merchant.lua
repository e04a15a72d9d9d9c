-- wrk script for npm run bench: /v2/limits, POST /v2/payout/pix and /v2/automatic-pix/recurrences. Each POST names a
-- different customer (valid CPF) and transaction_id, so POSTs create rather than contend on one; GETs cycle over
-- what exists. Answers are counted by status: the figures say how many failed, and how.
-- Environment: MODE (post|get|payout|recurrence|recurrence-get), API_KEY, BASE (first customer number of a POST
-- phase), DOCUMENTS_FILE (get: customers known to have a limit), IDS_FILE (recurrence-get: recurrence ids),
-- START_DATE (recurrence: tomorrow in Brasília), IDEMPOTENCY=1 (each POST carries an Idempotency-Key of its own).

local mode = os.getenv("MODE") or "post"
local base = tonumber(os.getenv("BASE") or "100000000")
local documents = {}
if mode == "get" then
  for line in io.lines(os.getenv("DOCUMENTS_FILE")) do table.insert(documents, line) end
end
local ids = {}
if mode == "recurrence-get" then
  for line in io.lines(os.getenv("IDS_FILE")) do table.insert(ids, line) end
end
local headers = { ["content-type"] = "application/json" }
if os.getenv("API_KEY") then headers["authorization"] = os.getenv("API_KEY") end
local idempotent = os.getenv("IDEMPOTENCY") == "1"

-- Check digits as the Receita Federal defines them.
local function cpf(n)
  local s = string.format("%09d", n % 1000000000)
  local d = {}
  for i = 1, 9 do d[i] = tonumber(s:sub(i, i)) end
  for _, len in ipairs({ 9, 10 }) do
    local sum = 0
    for i = 1, len do sum = sum + d[i] * (len + 2 - i) end
    d[len + 1] = (sum * 10 % 11) % 10
  end
  return table.concat(d)
end

local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

local counter = 0
function request()
  counter = counter + 1
  if idempotent and mode ~= "get" and mode ~= "recurrence-get" then headers["idempotency-key"] = string.format("k%d-%d-%d", base, id, counter) end
  if mode == "post" then
    local body = string.format('{"document_number":"%s","type":"cashin","mechanism":"amount","amount":%d.50}', cpf(base + id * 10000000 + counter), 100 + counter % 1000)
    return wrk.format("POST", "/v2/limits", headers, body)
  end
  if mode == "payout" then
    -- A payout to a Pix key, as a merchant's payroll run sends them; each checks the customer's cashout limit.
    local body = string.format('{"transaction_id":"b%d-%d-%d","amount":%d.90,"name":"Maria Silva","document_number":"%s","pix_key":"maria@example.com"}',
      base, id, counter, 10 + counter % 500, cpf(base + id * 10000000 + counter))
    return wrk.format("POST", "/v2/payout/pix", headers, body)
  end
  if mode == "recurrence" then
    local body = string.format('{"transaction_id":"r%d-%d-%d","debtor":{"document_number":"%s","name":"Maria Souza"},"schedule":{"start_date":"%s","periodicity":"MONTHLY"},"amount":49.90,"retry_policy":"NOT_ALLOWED"}',
      base, id, counter, cpf(base + id * 10000000 + counter), os.getenv("START_DATE"))
    return wrk.format("POST", "/v2/automatic-pix/recurrences", headers, body)
  end
  if mode == "recurrence-get" then
    return wrk.format("GET", "/v2/automatic-pix/recurrences/" .. ids[counter % #ids + 1], headers)
  end
  return wrk.format("GET", "/v2/limits?document_number=" .. documents[counter % #documents + 1] .. "&type=cashin", headers)
end

-- Refused and failed answers by status, per thread (wrk copies each thread's table out in done()).
statuses = {}
function response(status)
  if status >= 400 then statuses[status] = (statuses[status] or 0) + 1 end
end

function done(summary, latency, requests)
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  local byStatus = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do byStatus[status] = (byStatus[status] or 0) + count end
  end
  local parts = {}
  for status, count in pairs(byStatus) do table.insert(parts, string.format('"%d":%d', status, count)) end
  io.write(string.format('RESULT {"requests":%d,"seconds":%.3f,"p50_ms":%.2f,"p99_ms":%.2f,"failed":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"by_status":{%s}}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000, failed,
    summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, table.concat(parts, ",")))
end
