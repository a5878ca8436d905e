-- Test-only: makes a filter of accepted request keys with fs_keys_make and adds keys to it with fs_keys_open and
-- fs_keys_add, exactly as warm_up.lua and reserve.lua do, so a test can compare the bits Redis set with the positions
-- Java computes.
--
-- KEYS: 1 the filter
-- ARGV: 1 bits m, 2 hash count k, 3 layout (0 or 1), then the request keys to add
-- Reply: 1

fs_keys_make(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), 1, tonumber(ARGV[3]))
local filter = fs_keys_open(KEYS[1])
for i = 4, #ARGV do
    fs_keys_add(filter, ARGV[i])
end
return 1
