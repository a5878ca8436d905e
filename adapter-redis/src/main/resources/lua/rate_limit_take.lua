-- Takes one token from a rate-limit bucket, in one atomic step (ADR 0048; the rule is fs_bucket_take in lib/ledger.lua,
-- which reserve.lua also runs for the buyer's bucket, ADR 0060).
-- KEYS[1] the bucket; ARGV[1] capacity, ARGV[2] interval in microseconds (a period divided by its tokens, may have a
-- fraction), ARGV[3] how long the key is kept after the bucket would be full again, in milliseconds.
-- Returns {1, tokens left, 0} or {0, 0, microseconds until the next token}.
local taken, figure = fs_bucket_take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]),
    fs_now_micros())
if taken then
    return {1, figure, 0}
end
return {0, 0, figure}
