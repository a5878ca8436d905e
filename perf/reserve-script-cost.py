#!/usr/bin/env python3
"""Redis's own cost of reserve.lua per accepted attempt, the script alone (no service, no network between attempts).

Loads a sale of one SKU with warm_up.lua on a Redis that it FLUSHALLs (give it one of your own), then sends BATCHES calls
of reserve.lua with SIZE attempts each, every attempt a fresh buyer with a rate-limit bucket and one unit, judged by
Redis TIME as the service sends them, and prints INFO commandstats' evalsha µs and INFO cpu per attempt, and the
commands Redis ran per attempt (those inside the script included).

    python3 perf/reserve-script-cost.py PORT LUA_DIR [BATCHES [SIZE]]
    python3 perf/reserve-script-cost.py 6394 adapter-redis/src/main/resources/lua 300 64
    LUA_DIR of another commit: git archive <commit> adapter-redis/src/main/resources/lua | tar -x -C /tmp/old

Standard library only (a few lines of RESP). Not part of CI.
"""
import hashlib
import os
import re
import socket
import sys
import time


class Redis:
    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.reader = self.sock.makefile('rb')

    def call(self, *args):
        out = [b'*%d\r\n' % len(args)]
        for arg in args:
            arg = arg if isinstance(arg, bytes) else str(arg).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(arg), arg))
        self.sock.sendall(b''.join(out))
        return self.read()

    def read(self):
        line = self.reader.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'+':
            return rest.decode()
        if kind == b'-':
            raise RuntimeError(rest.decode())
        if kind == b':':
            return int(rest)
        if kind == b'$':
            size = int(rest)
            return None if size < 0 else self.reader.read(size + 2)[:-2].decode()
        size = int(rest)
        return None if size < 0 else [self.read() for _ in range(size)]


def compose(lua, name):
    """The script as the adapter's LuaScript sends it: the library's definitions it uses (directly or through one
    another, in the library's order; LuaLibrary in adapter-redis), then the script. A library without per-script
    selection (before ADR 83) is put in front whole, as LuaScript then did."""
    library, script = open(lua + '/lib/ledger.lua').read(), open('%s/%s.lua' % (lua, name)).read()
    if 'ATTEMPT_ARGUMENTS = 12' in open(lua + '/reserve.lua').read():
        return library + '\n' + script
    definitions, comments, lines, i = {}, [], library.split('\n'), 0
    while i < len(lines):
        start = re.match(r'^local (?:function )?((?:fs|FS)_\w+)', lines[i])
        if not start:
            comments = comments + [lines[i]] if lines[i].startswith('--') else []
            i += 1
            continue
        text = comments + [lines[i]]
        comments = []
        if lines[i].startswith('local function '):
            while lines[i] != 'end':
                i += 1
                text.append(lines[i])
        definitions[start.group(1)] = '\n'.join(text)
        i += 1
    def used(text):  # names in code, not in comments
        return re.findall(r'\b((?:fs|FS)_\w+)\b', re.sub(r'--[^\n]*', '', text))
    needed, to_visit = set(), used(script)
    while to_visit:
        name_ = to_visit.pop()
        if name_ in definitions and name_ not in needed:
            needed.add(name_)
            to_visit += used(definitions[name_])
    return ''.join(definitions[n] + '\n' for n in definitions if n in needed) + '\n' + script


def figures(redis):
    """(calls per command, evalsha µs, Redis CPU seconds) since the server started."""
    calls, evalsha = {}, 0
    for line in redis.call('INFO', 'commandstats').splitlines():
        if line.startswith('cmdstat_'):
            name, stats = line[len('cmdstat_'):].split(':', 1)
            fields = dict(field.split('=') for field in stats.split(','))
            calls[name] = int(fields['calls'])
            if name == 'evalsha':
                evalsha = int(fields['usec'])
    cpu = sum(float(line.split(':')[1]) for line in redis.call('INFO', 'cpu').splitlines()
              if line.startswith(('used_cpu_user:', 'used_cpu_sys:')))
    return calls, evalsha, cpu


def header(script, bits, hashes, hashed_here, buckets=0, keep=1000, bucket=True):
    """The arguments before the first attempt's: the sale alone, or since ADR 105 the call's header (Redis TIME judges
    and stamps, a bucket of 10 a 100 ms, the filter's shape when the keys are hashed here)."""
    if 'HEADER_ARGUMENTS = 6' not in script and 'HEADER_ARGUMENTS = 7' not in script:
        return ['cost']
    # bucket=False: a capacity of '', the buyers' bucket off (the call then carries no bucket keys).
    shared = ['cost', '', 10 if bucket else '', 100000, keep,
              '%d:%d:1:%d' % (bits, hashes, buckets) if hashed_here else '']
    # Since ADR 109 the header ends with the sale's slice count, 1 for a sale of one slice.
    return shared + (['1'] if 'HEADER_ARGUMENTS = 7' in script else [])


def attempt(script, token, buyer, bucket_key, bits, hashes, hashed_here, buckets=0, keep=1000):
    """One attempt's arguments as the adapter sends them to this version of reserve.lua: one unit of SKU "unit", its
    bucket's key at KEYS[bucket_key]; since ADR 83 the filter's shape, word and mask, and the lines as text alone;
    since ADR 100 the request entry's bucket among the sale's `buckets` (meta's requestBuckets, 0 for none); since
    ADR 103 no bucket key index (the script counts the bucket keys); since ADR 105 what every attempt of the call
    shares is in the header instead."""
    if 'HEADER_ARGUMENTS = 6' in script or 'HEADER_ARGUMENTS = 7' in script:
        field = buyer + ':' + token
        hashed = (word(field, bits, hashes) + [request_bucket(field, buckets) if buckets else '']) if hashed_here \
            else ['', '', '']
        return ['cost.' + token, buyer, token, 'unit:1'] + hashed
    # reservedAt empty: Redis TIME stamps the reservation, as with the service's default clock (until ADR 105 this
    # tool handed a packed instant in, and its counts left out the script's stamping).
    args = ['cost.' + token, buyer, token, '', '', '', 'unit:1', 10, 100000, keep, bucket_key]
    if 'ATTEMPT_ARGUMENTS = 1' not in script or 'ATTEMPT_ARGUMENTS = 12' in script:
        return args + [1, 'unit', 1]
    if "+13 the request entry's bucket" in script:
        args.pop()
        field = buyer + ':' + token
        if not hashed_here:
            return args + ['', '', '', '']
        return (args + ['%d:%d:1:%d' % (bits, hashes, buckets)] + word(field, bits, hashes)
                + [request_bucket(field, buckets) if buckets else ''])
    if "+14 the request entry's bucket" in script:
        if not hashed_here:
            return args + ['', '', '', '']
        field = buyer + ':' + token
        return (args + ['%d:%d:1:%d' % (bits, hashes, buckets)] + word(field, bits, hashes)
                + [request_bucket(field, buckets) if buckets else ''])
    args += (['%d:%d:1' % (bits, hashes)] + word(buyer + ':' + token, bits, hashes)) if hashed_here else ['', '', '']
    return args + ([1, 'unit', 1] if 'ATTEMPT_ARGUMENTS = 15' in script else [])


def reserved(reply):
    """Whether a reply of reserve.lua's is a reservation made now: {'RESERVED', at} before ADR 103, its instant alone
    since."""
    return isinstance(reply, (str, bytes)) or reply[0] == 'RESERVED'


def warm_up_arguments(lua, now, units, bits, hashes):
    """warm_up.lua's arguments for a sale of one SKU "unit", limit 1, open for the hour; since ADR 79 a paused flag
    comes before the items, since ADR 109 the slice count after it."""
    script = open(lua + '/warm_up.lua').read()
    paused = ['0'] if '9 paused' in script else []
    # Since ADR 109 the slice count follows: 1, a sale of one slice.
    slices = ['1'] if "10 the sale's slice count" in script else []
    return [now - 60, 0, now + 3600, 0, 1, 'unit', bits, hashes] + paused + slices + ['unit', units, 1, 1]


def warm_up(redis, lua, key, now, units, bits, hashes):
    """Loads the sale with warm_up.lua, calling it again while it answers 3 (buckets of the request index left to look
    at, ADR 0106), as the adapter does; older scripts answer at once."""
    keys = [key(part) for part in ('meta', 'stock', 'requests', 'keys', 'drop')]
    script = compose(lua, 'warm_up')
    reply = redis.call('EVAL', script, len(keys), *keys, *warm_up_arguments(lua, now, units, bits, hashes))
    while reply == 3:
        reply = redis.call('EVAL', script, len(keys), *keys, *warm_up_arguments(lua, now, units, bits, hashes))
    return reply


def request_bucket(field, buckets):
    """The request entry's bucket (1-based), as RedisKeys.requestBucketOf computes it (ADR 100)."""
    return str(int.from_bytes(hashlib.sha1(field.encode()).digest()[0:4], 'big') % buckets + 1)


def word(key, bits, hashes):
    """The key's word offset and mask in a filter of layout 1, as AcceptedRequestsFilter.Word computes them."""
    digest = hashlib.sha1(key.encode()).digest()
    h1, h2 = int.from_bytes(digest[0:4], 'big'), int.from_bytes(digest[4:8], 'big')
    mask = 0
    for i in range(hashes):
        mask |= 1 << (31 - ((h2 >> (5 * i)) & 31))
    return ['#%d' % (h1 % (bits // 32) + 2), str(mask)]


def main():
    port, lua = int(sys.argv[1]), sys.argv[2]
    batches = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    size = int(sys.argv[4]) if len(sys.argv) > 4 else 64
    redis = Redis(port)
    redis.call('FLUSHALL')
    key = lambda part: 'fs:{cost}:' + part
    now = int(time.time())
    # One SKU "unit" of 10^8 units in one segment, limit 1, a filter of 2^21 bits and 5 hashes, open for the hour.
    bits, hashes = 1 << 21, 5
    warm_up(redis, lua, key, now, 100000000, bits, hashes)
    script = open(lua + '/reserve.lua').read()
    # Since ADR 83 the adapter hashes each request key into the filter (three more arguments per attempt); HASH=lua
    # leaves it to the script, as for a sale whose filter shape the adapter does not know.
    filter_arguments = 'ATTEMPT_ARGUMENTS = 12' not in script
    hashed_here = filter_arguments and os.environ.get('HASH', 'adapter') == 'adapter'
    sha = redis.call('SCRIPT', 'LOAD', compose(lua, 'reserve'))
    buckets = int(redis.call('HGET', key('meta'), 'requestBuckets') or 0)
    fixed = [key(part) for part in ('meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight', 'keys')]
    calls_before, evalsha_before, cpu_before = figures(redis)
    for batch in range(batches):
        keys, args = list(fixed), header(script, bits, hashes, hashed_here, buckets)
        for i in range(size):
            buyer, token = 'buyer-%d-%d' % (batch, i), 't%dx%d' % (batch, i)
            keys.append(key('rl:' + buyer))
            args += attempt(script, token, buyer, len(keys), bits, hashes, hashed_here, buckets)
        replies = redis.call('EVALSHA', sha, len(keys), *keys, *args)
        if not all(reserved(reply) for reply in replies):
            sys.exit('not every attempt was reserved: %s' % replies[:3])
    calls_after, evalsha_after, cpu_after = figures(redis)
    attempts = batches * size
    print('%s: %d attempts in calls of %d: evalsha %.2f µs per attempt, INFO cpu %.2f µs per attempt' % (
        lua, attempts, size, (evalsha_after - evalsha_before) / attempts, (cpu_after - cpu_before) * 1e6 / attempts))
    moved = {name: count - calls_before.get(name, 0) for name, count in calls_after.items()}
    print('commands per attempt: ' + ', '.join('%s %.2f' % (name, count / attempts) for name, count in
                                               sorted(moved.items(), key=lambda item: -item[1])
                                               if count > 0 and name not in ('info', 'evalsha')))


if __name__ == '__main__':
    main()
