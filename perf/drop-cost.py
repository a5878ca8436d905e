#!/usr/bin/env python3
"""The longest Redis command of an archive and of a rebuild's begin for a sale of the most request index buckets
(8,192 of 32 entries, ADR 0100), by the slow log (every command logged), for two directories of scripts side by side.

Scripts whose directory has request_drop.lua drop the buckets after their atomic step, in pages as the adapter's
RequestIndexDrop sends them (ADR 0102), one run per page size; older ones drop them inside the step. Per case:
archive.lua; rebuild_begin.lua with meta kept (its count names the buckets); rebuild_begin.lua after a loss that took
meta (the buckets there, the count unknown: all 8,192 possible are dropped). FLUSHALLs the Redis: give it one of its own.

    python3 perf/drop-cost.py PORT BEFORE_LUA_DIR AFTER_LUA_DIR [ROUNDS [PAGES]]
    python3 perf/drop-cost.py 6392 /tmp/main-lua/adapter-redis/src/main/resources/lua adapter-redis/src/main/resources/lua 3 512,1024,2048
    BEFORE_LUA_DIR of another commit: git archive <commit> adapter-redis/src/main/resources/lua | tar -x -C /tmp/main-lua

Standard library only. Not part of CI.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('cost', os.path.join(HERE, 'reserve-script-cost.py'))
cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cost)

BUCKETS = 8192
ENTRIES = 32
SALE = 'fs:{dropcost}:'
GROUP = 'relays'


def key(part):
    return SALE + part


def pipeline(redis, commands):
    out = []
    for args in commands:
        out.append(b'*%d\r\n' % len(args))
        for arg in args:
            arg = str(arg).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(arg), arg))
    redis.sock.sendall(b''.join(out))
    for _ in commands:
        redis.read()


def fill(redis, meta_kept, ready):
    """The sale as an archive or a rebuild finds it: its buckets full, meta with their count (or none)."""
    redis.call('FLUSHALL')
    commands = []
    for k in range(1, BUCKETS + 1):
        args = ['HSET', key('requests:%d' % k)]
        for e in range(ENTRIES):
            args += ['b%07d:k-%08x' % (k * ENTRIES + e, k * 7919 + e), '']
        commands.append(args)
        if len(commands) == 256:
            pipeline(redis, commands)
            commands = []
    pipeline(redis, commands)
    redis.call('HSET', key('stock'), 'a:total', 262144, 'a:sold', 262144)
    if meta_kept:
        redis.call('HSET', key('meta'), 'requestBuckets', BUCKETS, 'limit', 1)
        if ready:
            redis.call('HSET', key('meta'), 'ready', 1)


class Scripts:
    def __init__(self, redis, lua):
        self.redis = redis
        self.paged = os.path.exists(lua + '/request_drop.lua')
        self.sha = {name: redis.call('SCRIPT', 'LOAD', cost.compose(lua, name))
                    for name in ['archive', 'rebuild_begin'] + (['request_drop'] if self.paged else [])}

    def run(self, name, keys, *args):
        return self.redis.call('EVALSHA', self.sha[name], len(keys), *keys, *args)

    def drop(self, page):
        """As RequestIndexDrop.finish: the buckets the marker names, in pages."""
        marker = self.redis.call('GET', key('drop'))
        if marker is None:
            return
        buckets = int(marker.split(':')[0])
        for first in range(1, buckets + 1, page):
            last = min(buckets, first + page - 1)
            keys = [key('drop'), key('meta')] + [key('requests:%d' % k) for k in range(first, last + 1)]
            assert self.run('request_drop', keys, marker, '1' if last == buckets else '0') == 1

    def archive(self, page):
        keys = [key(part) for part in ['outbox', 'meta', 'requests', 'stock', 'holdings', 'reservations', 'keys',
                                       'inflight', 'recovery', 'audit']]
        assert self.run('archive', ([key('drop')] if self.paged else []) + keys, GROUP) == 1
        if self.paged:
            self.drop(page)

    def rebuild_begin(self, page):
        keys = [key(part) for part in ['meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight',
                                       'keys']]
        reply = self.run('rebuild_begin', keys + ([key('drop')] if self.paged else []), GROUP, 30, 0)
        assert reply[0] == 'STARTED', reply
        if self.paged:
            self.drop(page)


def measured(redis, scripts, case, page):
    """(longest command µs, the script it was, the atomic step's µs, commands, µs of all of them) of one case, every
    command logged."""
    fill(redis, meta_kept=case != 'rebuild_begin, meta lost', ready=case == 'archive')
    redis.call('SLOWLOG', 'RESET')
    if case == 'archive':
        scripts.archive(page)
    else:
        scripts.rebuild_begin(page)
    log = [entry for entry in redis.call('SLOWLOG', 'GET', '-1') if entry[3][0].upper() == 'EVALSHA']
    names = {sha: name for name, sha in scripts.sha.items()}
    assert not [k for k in redis.call('KEYS', key('requests:*'))], 'a bucket survived'
    longest = max(log, key=lambda entry: entry[2])
    step = min(log, key=lambda entry: entry[0])
    return longest[2], names[longest[3][1]], step[2], len(log), sum(entry[2] for entry in log)


def main():
    port, before, after = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    pages = [int(p) for p in (sys.argv[5] if len(sys.argv) > 5 else '1024').split(',')]
    redis = cost.Redis(port)
    redis.call('CONFIG', 'SET', 'slowlog-log-slower-than', 0)
    redis.call('CONFIG', 'SET', 'slowlog-max-len', 100000)
    print('load average at start:', open('/proc/loadavg').read().strip())
    versions = [('before', Scripts(redis, before), [0]), ('after', Scripts(redis, after), pages)]
    for case in ['archive', 'rebuild_begin, meta kept', 'rebuild_begin, meta lost']:
        for r in range(rounds):
            for label, scripts, sizes in (versions if r % 2 == 0 else versions[::-1]):
                for page in sizes:
                    longest, name, step, commands, total = measured(redis, scripts, case, page)
                    print('%-26s round %d %-6s %-10s longest %6d µs (%s), the step %6d µs, %d script calls, %6d µs in'
                          ' all' % (case, r + 1, label, 'page %d' % page if page else 'one step', longest, name, step,
                                    commands, total), flush=True)
    print('load average at end:', open('/proc/loadavg').read().strip())
    redis.call('FLUSHALL')


if __name__ == '__main__':
    main()
