#!/usr/bin/env python3
"""Where a reserve call's instructions go: reserve.lua cut short after each of its stages, counted by callgrind.

Each stage's figure is the instructions Redis executes for a call of SIZE attempts (fresh buyers, one unit each, the
buyers' bucket on) when the script returns right after that stage, less the figure of the stage before, per attempt.
The first stage holds what every call pays before it judges anything: the EVALSHA, its KEYS and ARGV becoming Lua
strings, the definitions of the script's functions (created anew by every call) and the attempts' tables. The last
stage is the whole script; the stages together are `perf/redis-instructions.py`'s "reserve" figure for the same size.
A cut script still reads what the stages before the cut read, so a stage's figure is what it adds, not what it would
cost alone. Every version of the whole script runs first on the same sale, so the hashes are past Redis's small
encodings as in a sale under load.

    python3 perf/reserve-stages.py [SIZE [CALLS]]
    python3 perf/reserve-stages.py 1 400     a call of one attempt, the fixed cost of a call
    python3 perf/reserve-stages.py 16 100    a busy sale's calls
    FUNCTION=1 python3 perf/reserve-stages.py 1 400
        the whole script also as a Redis function (Redis 7: FUNCTION LOAD once, FCALL per call), its library's
        definitions made once at load instead of by every call; the script's own body, unchanged, is the function

Needs valgrind and redis-server, as perf/redis-instructions.py (whose Callgrind helper and reserve-script-cost.py's
arguments it uses). Counts do not depend on the machine's load. A stage's cut is found by the text it follows in
reserve.lua; the tool stops when that text is gone (the script changed: update STAGES). Not part of CI.
"""
import importlib.util
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('instructions', os.path.join(HERE, 'redis-instructions.py'))
instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instructions)
cost = instructions.cost
key = instructions.key

LUA = os.path.join(HERE, '..', 'adapter-redis', 'src', 'main', 'resources', 'lua')
WARM_UP_ATTEMPTS = 2048
BUCKET_KEEP_MILLIS = 3_600_000

# (stage, the text of reserve.lua the cut goes before, what the cut returns). The cuts inside reserve(a) return a
# packed instant, as an accepted attempt's reply is, so the call's replies keep their shape.
STAGES = [
    ('call, arguments, definitions', 'local replies = {}\n', 'do return {} end\n'),
    ("the slice count (meta's read)", 'for i, a in ipairs(attempts) do\n    replies[i] = reserve(a)',
     'do return replies end\n'),
    ('1 replay: request entry', "    -- 2. The buyer's rate limit", "    do return '0.0' end\n"),
    ("2 the buyer's bucket, Redis TIME", '    -- 3. Warmed up, inside the window', "    do return '0.0' end\n"),
    ('3 the window', '    -- 4. Every SKU must belong', "    do return '0.0' end\n"),
    ("4 lines, the SKU's figures", '    -- 5. Line by line', "    do return '0.0' end\n"),
    ("5 the buyer's holding, stock", '    -- 6. Every line passed.', "    do return '0.0' end\n"),
    ('6 accept (the call\'s instant)', 'writeAll()\nreturn replies', 'do return replies end\n'),
    ('write: records, index values, filter words', "    fs_call_all('HSET', reservations, records, 2)\n",
     '    do return end\n'),
    ('write: HSET records', '    for _, key in ipairs(entryKeys) do\n', '    do return end\n'),
    ('write: HSET request index', '    fs_keys_set(filter())\n', '    do return end\n'),
    ('write: filter words (BITFIELD)', '    -- In flight until MySQL settles it', '    do return end\n'),
    ('write: HSET in-flight index', '    local holdingValues = {}\n', '    do return end\n'),
    ('write: HSET holdings', '    -- Every counter of every SKU the call moved', '    do return end\n'),
    ('write: HSET stock counters', '    fs_outbox_add(outbox, records)\nend', '    do return end\n'),
    ('write: XADD outbox, reply', None, None),
]


def cut(script, before, returning):
    if before is None:
        return script
    if script.count(before) != 1:
        sys.exit('reserve.lua no longer holds %r once: update STAGES' % before)
    return script.replace(before, returning + before)


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else max(25, 1600 // size)
    script = open(os.path.join(LUA, 'reserve.lua')).read()
    whole = cost.compose(LUA, 'reserve')
    attempts = calls * size
    units = (attempts * (len(STAGES) + 2) + WARM_UP_ATTEMPTS)
    bits, hashes = max(1024, math.ceil(units * 1.25 * 16 / 64) * 64), 5
    server = instructions.Callgrind()
    redis = server.redis
    try:
        cost.warm_up(redis, LUA, key, int(time.time()), units, bits, hashes)
        redis.call('XGROUP', 'CREATE', key('outbox'), 'relays', '0', 'MKSTREAM')
        request_buckets = int(redis.call('HGET', key('meta'), 'requestBuckets') or 0)
        fixed = [key(part) for part in
                 ('meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight', 'keys')]

        def reserve(called, tag, count, command='EVALSHA'):
            """Fresh attempts in calls of `size`: `called` is a script's SHA for EVALSHA, a function's name for FCALL."""
            for batch in range(count // size):
                keys, args = list(fixed), cost.header(script, bits, hashes, True, request_buckets,
                                                      BUCKET_KEEP_MILLIS)
                for i in range(size):
                    buyer, token = 'buyer-%s%d-%d' % (tag, batch, i), 't%s%dx%d' % (tag, batch, i)
                    keys.append(key('rl:' + buyer))
                    args += cost.attempt(script, token, buyer, len(keys), bits, hashes, True, request_buckets,
                                         BUCKET_KEEP_MILLIS)
                redis.call(command, called, len(keys), *keys, *args)

        reserve(redis.call('SCRIPT', 'LOAD', whole), 'w', WARM_UP_ATTEMPTS // size * size)
        as_function = None
        if os.environ.get('FUNCTION'):
            library = whole[:whole.rindex(script)]
            redis.call('FUNCTION', 'LOAD', 'REPLACE', '#!lua name=fs_stages\n' + library
                       + "\nredis.register_function('fs_reserve', function(KEYS, ARGV)\n" + script + '\nend)\n')
            as_function = server.measure(lambda: reserve('fs_reserve', 'f-', attempts, 'FCALL')) / attempts
        rows, before = [], 0
        for n, (stage, text, returning) in enumerate(STAGES):
            sha = redis.call('SCRIPT', 'LOAD', cut(whole, text, returning))
            counted = server.measure(lambda: reserve(sha, 's%d-' % n, attempts)) / attempts
            rows.append((stage, counted - before))
            before = counted
    finally:
        server.stop()
    print('reserve.lua in calls of %d attempts (%d calls): instructions per attempt, stage by stage' % (size, calls))
    for stage, figure in rows:
        print('  %-45s %9.0f' % (stage, figure))
    print('  %-45s %9.0f' % ('the whole call', before))
    if as_function is not None:
        print('  %-45s %9.0f' % ('the whole call as a function (FCALL)', as_function))


if __name__ == '__main__':
    main()
