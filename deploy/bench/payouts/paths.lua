-- wrk script: GETs the paths of PATHS_FILE (one per line) in random order, with API_KEY; prints one RESULT line.

local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do table.insert(paths, line) end
local headers = { authorization = os.getenv("API_KEY") }

function request()
  return wrk.format("GET", paths[math.random(#paths)], headers)
end

function done(summary, latency, requests)
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('RESULT {"requests":%d,"seconds":%.3f,"p50_ms":%.2f,"p99_ms":%.2f,"failed":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000, failed))
end
