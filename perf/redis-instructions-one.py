#!/usr/bin/env python3
"""Redis's own instructions per call of the one-reservation scripts, counted by callgrind as redis-instructions.py
counts a reservation's life (whose redis-server under callgrind, warm-up and reserve calls this reuses).

Loads a sale of one SKU, makes 3 x N reservations in reserve.lua calls of 16 (not counted), then counts, each phase
alone: N calls of confirm.lua, N of release.lua (other reservations), N of restore.lua (the confirmed ones, CANCELLED).

    python3 perf/redis-instructions-one.py LUA_DIR [N]
    python3 perf/redis-instructions-one.py adapter-redis/src/main/resources/lua 400

PORT=<port> for the redis-server it starts (default 6495), a free one: it talks to whatever answers there. Standard
library only. Not part of CI.
"""
import importlib.util
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('instructions', os.path.join(HERE, 'redis-instructions.py'))
instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(instructions)
cost, key = instructions.cost, instructions.key
BITS, HASHES, SIZE = 65536, 5, 16


def main():
    lua = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    server = instructions.Callgrind()
    redis = server.redis
    try:
        cost.warm_up(redis, lua, key, int(time.time()), 10 * n, BITS, HASHES)
        script = open(lua + '/reserve.lua').read()
        buckets = int(redis.call('HGET', key('meta'), 'requestBuckets') or 0)
        shas = {name: redis.call('SCRIPT', 'LOAD', cost.compose(lua, name))
                for name in ('reserve', 'confirm', 'release', 'restore')}
        fixed = [key(part) for part in
                 ('meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight', 'keys')]
        made = []
        for batch in range(3 * n // SIZE + 1):
            keys, args = list(fixed), ['cost']
            for i in range(SIZE):
                buyer, token = 'buyer-%d-%d' % (batch, i), 't%dx%d' % (batch, i)
                keys.append(key('rl:' + buyer))
                attempt = cost.attempt(script, token, buyer, len(keys), BITS, HASHES, True, buckets)
                attempt[9] = instructions.BUCKET_KEEP_MILLIS
                args += attempt
                made.append(('cost.' + token, buyer, token))
            if not all(cost.reserved(reply) for reply in redis.call('EVALSHA', shas['reserve'], len(keys), *keys, *args)):
                sys.exit('not every attempt was reserved')
        confirmed, released = made[:n], made[n:2 * n]

        def confirm():
            for reservation, _, _ in confirmed:
                check(redis.call('EVALSHA', shas['confirm'], 3, key('stock'), key('reservations'), key('inflight'),
                                 reservation), 1)

        def release():
            for reservation, _, _ in released:
                check(redis.call('EVALSHA', shas['release'], 4, key('stock'), key('holdings'), key('reservations'),
                                 key('inflight'), reservation), 1)

        # Since ADR 100 restore.lua also takes meta (the request index's bucket count).
        restore_keys = [key(part) for part in ('stock', 'holdings', 'reservations', 'requests')] + (
            [key('meta')] if '5 meta' in open(lua + '/restore.lua').read() else [])

        def restore():
            for reservation, buyer, token in confirmed:
                check(redis.call('EVALSHA', shas['restore'], len(restore_keys), *restore_keys, reservation,
                                 'CANCELLED', buyer, token, 'unit:1'), 'ORDERED')

        figures = [(name, server.measure(phase)) for name, phase in
                   (('confirm', confirm), ('release', release), ('restore', restore))]
    finally:
        server.stop()
    print('%s: instructions per call: %s' % (lua, ', '.join('%s %.0f' % (name, count / n) for name, count in figures)))
    print('callgrind dumps, one per phase in the order above: ' + server.dir)


def check(reply, expected):
    if reply != expected:
        sys.exit('a call answered %r, not %r' % (reply, expected))


if __name__ == '__main__':
    main()
