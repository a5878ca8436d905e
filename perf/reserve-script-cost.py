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


def main():
    port, lua = int(sys.argv[1]), sys.argv[2]
    batches = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    size = int(sys.argv[4]) if len(sys.argv) > 4 else 64
    library = open(lua + '/lib/ledger.lua').read()
    redis = Redis(port)
    redis.call('FLUSHALL')
    key = lambda part: 'fs:{cost}:' + part
    now = int(time.time())
    # One SKU "unit" of 10^8 units in one segment, limit 1, a filter of 2^21 bits and 7 hashes, open for the hour.
    redis.call('EVAL', library + open(lua + '/warm_up.lua').read(), 4, key('meta'), key('stock'), key('requests'),
               key('keys'), now - 60, 0, now + 3600, 0, 1, 'unit', 1 << 21, 7, 'unit', 100000000, 1, 1)
    sha = redis.call('SCRIPT', 'LOAD', library + open(lua + '/reserve.lua').read())
    fixed = [key(part) for part in ('meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight', 'keys')]
    calls_before, evalsha_before, cpu_before = figures(redis)
    for batch in range(batches):
        keys, args = list(fixed), ['cost']
        for i in range(size):
            buyer, token = 'buyer-%d-%d' % (batch, i), 't%dx%d' % (batch, i)
            keys.append(key('rl:' + buyer))
            args += ['cost.' + token, buyer, token, '', '', 'lq2k3m.5x', 'unit:1', 10, 100000, 1000, len(keys), 1,
                     'unit', 1]
        replies = redis.call('EVALSHA', sha, len(keys), *keys, *args)
        if any(reply[0] != 'RESERVED' for reply in replies):
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
