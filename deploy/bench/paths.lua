-- wrk script: GETs the paths of PATHS_FILE (one per line) in random order with the headers of HEADERS_JSON (a flat
-- object; its "signatures", if any, maps each path to its X-Signature); prints one RESULT line.

local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do table.insert(paths, line) end

-- HEADERS_JSON is flat: "name":"value" pairs, and "signatures":{"path":"sig",...}.
local raw = os.getenv("HEADERS_JSON")
local headers, signatures = {}, {}
local sigs = raw:match('"signatures":(%b{})')
if sigs then
  for k, v in sigs:gmatch('"([^"]+)":"([^"]+)"') do signatures[k] = v end
  raw = raw:gsub('"signatures":%b{},?', '')
end
for k, v in raw:gmatch('"([^"]+)":"([^"]+)"') do headers[k] = v end

function request()
  local p = paths[math.random(#paths)]
  if signatures[p] then headers["x-signature"] = signatures[p] end
  return wrk.format("GET", p, headers)
end

function done(summary, latency, requests)
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('RESULT {"requests":%d,"seconds":%.3f,"p50_ms":%.2f,"p99_ms":%.2f,"failed":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000, failed))
end
