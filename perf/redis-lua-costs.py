#!/usr/bin/env python3
"""What the steps a Redis script is made of cost Redis, in instructions, counted by callgrind: the price list behind
reserve.lua's figures (perf/reserve-stages.py).

Each row is a small script run CALLS times by EVALSHA; its figure is its instructions less those of a script that
only returns, divided by the times the step runs in it. Counts do not depend on the machine's load; they do depend on
the Redis build (its Lua interpreter, allocator and version).

    python3 perf/redis-lua-costs.py [CALLS]

Needs valgrind and redis-server, as perf/redis-instructions.py (whose Callgrind helper it uses). Not part of CI.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('instructions', os.path.join(HERE, 'redis-instructions.py'))
instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instructions)

LOOP = 2000
ARGUMENTS = 16

# (step, script, how many times the step runs in one call, ARGV): a count of fresh texts ('a<call>-<i>', so that the
# keys and fields a script writes are new in every call), or the texts themselves.
STEPS = [
    ('an EVALSHA argument (ARGV entry)', 'return 1', ARGUMENTS, ARGUMENTS),
    ('a local function defined (a closure; every EVALSHA makes its script\'s anew)',
     'local f = {} for i = 1, %d do f[i] = function(x) return x + i end end return 1' % LOOP, LOOP, 0),
    ('Lua: add two numbers', 'local x = 0 for i = 1, %d do x = x + i end return 1' % LOOP, LOOP, 0),
    ('Lua: read and write a table field by name',
     'local t = { a = 1 } for i = 1, %d do t.a = t.a + i end return 1' % LOOP, LOOP, 0),
    ('Lua: call a Lua function', 'local function f(x) return x + 1 end local x = 0 for i = 1, %d do x = f(x) end '
                                 'return 1' % LOOP, LOOP, 0),
    ('Lua: call a C function (bit.band)', 'local x = 0 for i = 1, %d do x = bit.band(x, i) end return 1' % LOOP,
     LOOP, 0),
    ("Lua: a text to a number (tonumber('12345'))",
     "local x for i = 1, %d do x = tonumber('12345') end return 1" % LOOP, LOOP, 0),
    ("Lua: a number to text (string.format('%d', n))",
     "local x for i = 1, %d do x = string.format('%%d', 1733600000000000 + i) end return 1" % LOOP, LOOP, 0),
    ('Lua: join two texts (a new text)', "local x for i = 1, %d do x = ARGV[1] .. ':' .. ARGV[1 + i %% 16] end "
                                         "return 1" % LOOP, LOOP, ARGUMENTS),
    ('Lua: a new empty table', 'local x for i = 1, %d do x = {} end return 1' % LOOP, LOOP, 0),
    ('Lua: a new table of seven fields',
     'local x for i = 1, %d do x = { a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = i } end return 1' % LOOP, LOOP,
     0),
    ('redis.call HGET of a missing field, one call each',
     "for i = 1, 16 do redis.call('HGET', 'h', ARGV[i]) end return 1", 16, ARGUMENTS),
    ('redis.call HMGET, per field of one call of 16', "redis.call('HMGET', 'h', unpack(ARGV)) return 1", 16,
     ARGUMENTS),
    ('redis.call GET of a missing key, one call each', "for i = 1, 16 do redis.call('GET', ARGV[i]) end return 1",
     16, ARGUMENTS),
    ('redis.call SET of a new key with PX, one call each',
     "for i = 1, 16 do redis.call('SET', ARGV[i], '1733600000000000', 'PX', '6000') end return 1", 16, ARGUMENTS),
    ('redis.call HSET, per new field of one call of 16 (a hash of 5,000: a hash table)',
     "local t = {} for i = 1, 16 do t[2 * i - 1], t[2 * i] = ARGV[i], '1' end redis.call('HSET', 'big', unpack(t)) "
     "return 1", 16, ARGUMENTS),
    ('redis.call HGET of a field of a hash of 5,000 (a hash table), one call each',
     "for i = 1, 16 do redis.call('HGET', 'big', ARGV[i]) end return 1", 16, ['f%d' % (i * 97) for i in range(16)]),
    ('redis.call HGET of a field of a hash of 100 (a listpack, scanned), one call each',
     "for i = 1, 16 do redis.call('HGET', 'small', ARGV[i]) end return 1", 16, ['f%d' % (i * 5) for i in range(16)]),
]


def count(arguments):
    return len(arguments) if isinstance(arguments, list) else arguments


def main():
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    server = instructions.Callgrind()
    redis = server.redis
    counter = [0]

    def run(sha, arguments):
        for _ in range(calls):
            counter[0] += 1
            texts = arguments if isinstance(arguments, list) else ['a%d-%d' % (counter[0], i) for i in range(arguments)]
            redis.call('EVALSHA', sha, 0, *texts)

    try:
        for name, fields in (('big', 5000), ('small', 100)):
            for first in range(0, fields, 500):
                pairs = []
                for i in range(first, min(fields, first + 500)):
                    pairs += ['f%d' % i, 'v%d' % i]
                redis.call('HSET', name, *pairs)
        empty = redis.call('SCRIPT', 'LOAD', 'return 1')
        base = server.measure(lambda: run(empty, 0)) / calls
        rows = []
        for step, script, times, arguments in STEPS:
            sha = redis.call('SCRIPT', 'LOAD', script)
            rows.append((step, (server.measure(lambda: run(sha, arguments)) / calls - base) / times))
        # The other rows' ARGV, paid by every call with arguments, is not the step's cost.
        per_argument = rows[0][1]
        rows = [rows[0]] + [(step, figure - per_argument * count(arguments) / times)
                            for (step, figure), (_, _, times, arguments) in zip(rows[1:], STEPS[1:])]
    finally:
        server.stop()
    print('EVALSHA of a script that only returns: %.0f instructions' % base)
    for step, figure in rows:
        print('  %-80s %7.0f' % (step, figure))


if __name__ == '__main__':
    main()
