#!/usr/bin/env python3
"""The longest Redis command of warm_up.lua's warm-up of a sale of the most request index buckets (262,144 units:
8,192 buckets, ADR 0100), by the slow log (every command logged), for two directories of scripts side by side.

A warm-up is warm_up.lua called until it loads the sale (reply 0 or 1), as the adapter's RedisStockReservationAdapter
calls it: scripts that look for the buckets a page a call (ADR 0106) answer 3 until they have looked at every one;
older ones look at all of them in one call. Two cases: a new sale (no bucket there: every one is looked at, and the
filter of accepted request keys is made, sized as the adapter sizes it); a sale whose meta and filter a loss took while
its buckets (32 entries each) stayed (the first bucket found ends the look, and no filter is made). PAGES (optional)
also runs the after scripts with warm_up.lua's CHECK_PAGE set to each size given. FLUSHALLs the Redis: give it one of
its own.

    python3 perf/warm-up-cost.py PORT BEFORE_LUA_DIR AFTER_LUA_DIR [ROUNDS [PAGES]]
    python3 perf/warm-up-cost.py 6391 /tmp/warm-main-lua/adapter-redis/src/main/resources/lua adapter-redis/src/main/resources/lua 5
    BEFORE_LUA_DIR of another commit: git archive <commit> adapter-redis/src/main/resources/lua | tar -x -C /tmp/warm-main-lua

Standard library only. Not part of CI.
"""
import importlib.util
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def module(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


cost, drop = module('cost', 'reserve-script-cost.py'), module('drop', 'drop-cost.py')
key = drop.key
UNITS = drop.BUCKETS * drop.ENTRIES
# AcceptedRequestsFilter.Size.forUnits(262,144): 1.25 keys a unit, 16 bits a key, 0.32 hashes a bit per key.
BITS, HASHES = 5242880, 5
CASES = ['new sale', 'meta and filter lost, buckets kept']


def fill(redis, case):
    """The sale as the warm-up finds it: nothing, or drop-cost.py's 8,192 buckets of 32 entries and no meta or
    filter."""
    redis.call('FLUSHALL')
    if case != 'new sale':
        drop.fill(redis, meta_kept=False, ready=False)


class Scripts:
    def __init__(self, redis, lua, page=None):
        self.redis, self.lua = redis, lua
        text = cost.compose(lua, 'warm_up')
        if page:
            text, replaced = re.subn(r'local CHECK_PAGE = \d+', 'local CHECK_PAGE = %d' % page, text)
            assert replaced == 1, 'no CHECK_PAGE in ' + lua
        self.sha = redis.call('SCRIPT', 'LOAD', text)

    def warm_up(self):
        keys = [key(part) for part in ['meta', 'stock', 'requests', 'keys', 'drop']]
        args = cost.warm_up_arguments(self.lua, int(time.time()), UNITS, BITS, HASHES)
        for _ in range(drop.BUCKETS):
            reply = self.redis.call('EVALSHA', self.sha, len(keys), *keys, *args)
            if reply in (0, 1):
                return
            assert reply == 3, reply
        raise AssertionError('never loaded')


def measured(redis, scripts, case):
    """(longest command µs, commands, µs of all of them) of one warm-up, every command logged."""
    fill(redis, case)
    redis.call('SLOWLOG', 'RESET')
    scripts.warm_up()
    log = [entry for entry in redis.call('SLOWLOG', 'GET', '-1') if entry[3][0].upper() == 'EVALSHA']
    assert redis.call('HGET', key('meta'), 'ready') == '1'
    assert redis.call('EXISTS', key('keys')) == (1 if case == 'new sale' else 0), 'the filter'
    return max(entry[2] for entry in log), len(log), sum(entry[2] for entry in log)


def main():
    port, before, after = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    pages = [int(p) for p in sys.argv[5].split(',')] if len(sys.argv) > 5 else []
    redis = cost.Redis(port)
    redis.call('CONFIG', 'SET', 'slowlog-log-slower-than', 0)
    redis.call('CONFIG', 'SET', 'slowlog-max-len', 100000)
    print('load average at start:', open('/proc/loadavg').read().strip())
    versions = [('before', Scripts(redis, before)), ('after', Scripts(redis, after))]
    versions += [('after, page %d' % page, Scripts(redis, after, page)) for page in pages]
    for case in CASES:
        for r in range(rounds):
            for label, scripts in (versions if r % 2 == 0 else versions[::-1]):
                longest, commands, total = measured(redis, scripts, case)
                print('%-36s round %d %-16s longest %6d µs, %2d script calls, %6d µs in all' % (
                    case, r + 1, label, longest, commands, total), flush=True)
    print('load average at end:', open('/proc/loadavg').read().strip())
    redis.call('FLUSHALL')


if __name__ == '__main__':
    main()
