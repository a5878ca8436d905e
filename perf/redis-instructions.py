#!/usr/bin/env python3
"""Redis's own instructions per reservation over its whole life, phase by phase, counted by Valgrind's callgrind.

Starts a redis-server of its own under callgrind (instrumentation off), loads a sale of one SKU with warm_up.lua, then
runs each phase of a reservation's life as the service sends it and has callgrind dump the instructions (Ir) Redis
executed in that phase alone:

    reserve      reserve.lua in calls of SIZE attempts, each a fresh buyer with a rate-limit bucket and one unit
    relay        XREADGROUP of the relays' group, as the relay reads the outbox
    acknowledge  acknowledge.lua with each entry's broker position
    settle       settle_batch.lua, every reservation confirmed (MySQL ordered it)

Instructions do not depend on the machine's load, so two versions of the scripts compare exactly, side by side, on a
busy machine; `perf/redis-cost.sh` measures the same life in µs with the service in front (and the load in them).

    python3 perf/redis-instructions.py LUA_DIR [RESERVATIONS [SIZE]]
    python3 perf/redis-instructions.py adapter-redis/src/main/resources/lua 3200 16
    NO_BUCKET=1 python3 perf/redis-instructions.py ...   the same without the buyers' bucket
    LUA_DIR of another commit: git archive <commit> adapter-redis/src/main/resources/lua | tar -x -C /tmp/old

Needs valgrind and redis-server (REDIS_SERVER=<path> for another build, e.g. one with symbols, whose dumps then name
Redis's functions: `callgrind_annotate <dump>`; the dumps stay in the directory printed last). Standard library only.
Not part of CI (a run takes about a minute).
"""
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('cost', os.path.join(HERE, 'reserve-script-cost.py'))
cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cost)

PORT = int(os.environ.get('PORT', '6495'))
RELAY_READ = 500
SETTLE_BATCH = 100
ACK_BATCH = 100
WARM_ROUND = 2048
BUCKET_KEEP_MILLIS = 3_600_000
# NO_BUCKET=1 counts the life of a reservation without the buyers' bucket (ADR 60): what the bucket costs is the
# difference.
BUCKET = os.environ.get('NO_BUCKET', '') == ''



def key(part):
    return 'fs:{cost}:' + part


class Callgrind:
    """A redis-server under callgrind; dump() writes what ran since the last dump (instrumentation on meanwhile)."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix='redis-instructions-')
        self.out = os.path.join(self.dir, 'cg.out')
        self.process = subprocess.Popen(
            ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + self.out, '--instr-atstart=no',
             os.environ.get('REDIS_SERVER', 'redis-server'), '--port', str(PORT), '--save', '', '--appendonly', 'no', '--dir', self.dir,
             '--bind', '127.0.0.1'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                self.redis = cost.Redis(PORT)
                self.redis.call('PING')
                return
            except OSError:
                time.sleep(0.1)
        sys.exit('redis-server under valgrind did not start')

    def control(self, *args):
        subprocess.run(['callgrind_control', *args, str(self.process.pid)], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)

    def measure(self, phase):
        """Instructions of phase(), a callable sending its commands."""
        self.control('-i', 'on')
        phase()
        self.control('-i', 'off')
        before = set(os.listdir(self.dir))
        self.control('-d')
        for _ in range(100):
            new = [name for name in set(os.listdir(self.dir)) - before if name.startswith('cg.out')]
            if new:
                return total(os.path.join(self.dir, new[0]))
            time.sleep(0.1)
        sys.exit('callgrind wrote no dump')

    def stop(self):
        try:
            self.redis.call('SHUTDOWN', 'NOSAVE')
        except (OSError, RuntimeError, ValueError):
            pass  # SHUTDOWN closes the connection instead of answering
        self.process.wait(timeout=60)


def total(dump):
    for _ in range(100):
        for line in open(dump):
            if line.startswith('totals:'):
                return int(line.split()[1])
        time.sleep(0.2)  # still being written
    sys.exit('no totals in ' + dump)


def main():
    lua = sys.argv[1]
    reservations = int(sys.argv[2]) if len(sys.argv) > 2 else 3200
    size = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    script = open(lua + '/reserve.lua').read()
    filter_arguments = 'ATTEMPT_ARGUMENTS = 12' not in script
    # The filter as AcceptedRequestsFilter.Size makes it for a sale of as many units as there are reservations: 16
    # bits and 5 hashes a key since ADR 83 (word layout), 9.6 bits and 7 hashes before.
    keys = (reservations + WARM_ROUND) * 1.25
    bits = max(1024, math.ceil(keys * (16 if filter_arguments else 9.6) / 64) * 64)
    hashes = 5 if filter_arguments else 7
    server = Callgrind()
    redis = server.redis
    try:
        now = int(time.time())
        cost.warm_up(redis, lua, key, now, reservations + WARM_ROUND, bits, hashes)
        redis.call('XGROUP', 'CREATE', key('outbox'), 'relays', '0', 'MKSTREAM')
        request_buckets = int(redis.call('HGET', key('meta'), 'requestBuckets') or 0)
        shas = {name: redis.call('SCRIPT', 'LOAD', cost.compose(lua, name))
                for name in ('reserve', 'acknowledge', 'settle_batch')}
        fixed = [key(part) for part in
                 ('meta', 'stock', 'holdings', 'reservations', 'requests', 'outbox', 'inflight', 'keys')]
        life = {'ids': [], 'entries': []}

        def reserve(count, round_):
            for batch in range(count // size):
                # The buckets outlive the run: Redis's active expiry of the buckets would otherwise land in a phase
                # at a moment that depends on the machine's speed, and the counts would move with the load.
                keys = list(fixed)
                args = cost.header(script, bits, hashes, True, request_buckets, BUCKET_KEEP_MILLIS, BUCKET)
                for i in range(size):
                    buyer, token = 'buyer-%s%d-%d' % (round_, batch, i), 't%s%dx%d' % (round_, batch, i)
                    if BUCKET:
                        keys.append(key('rl:' + buyer))
                    args += cost.attempt(script, token, buyer, len(keys), bits, hashes, True, request_buckets,
                                         BUCKET_KEEP_MILLIS)
                    life['ids'].append('cost.' + token)
                replies = redis.call('EVALSHA', shas['reserve'], len(keys), *keys, *args)
                if not all(cost.reserved(reply) for reply in replies):
                    sys.exit('not every attempt was reserved: %s' % replies[:3])

        def relay():
            while True:
                read = redis.call('XREADGROUP', 'GROUP', 'relays', 'relay-1', 'COUNT', RELAY_READ, 'STREAMS',
                                  key('outbox'), '>')
                if not read:
                    return
                for entry_id, fields in read[0][1]:
                    # One entry a reserve call, each reservation id a field (ADR 0107), or one entry a reservation
                    # with its id in the field reservationId (the scripts before it).
                    body = dict(zip(fields[::2], fields[1::2]))
                    ids = [body['reservationId']] if 'reservationId' in body else fields[::2]
                    life['entries'] += [(entry_id, reservation) for reservation in ids]

        def acknowledge():
            entries = life['entries']
            first = 0
            while first < len(entries):
                chunk = entries[first:first + ACK_BATCH]
                # An entry's reservations are acknowledged in one call, as the adapter does (ADR 0107).
                while first + len(chunk) < len(entries) and entries[first + len(chunk)][0] == chunk[-1][0]:
                    chunk.append(entries[first + len(chunk)])
                entry_ids = list(dict.fromkeys(entry_id for entry_id, _ in chunk))
                args = ['relays', len(entry_ids)] + entry_ids
                for offset, (_, reservation) in enumerate(chunk):
                    args += [reservation, '0:%d' % (first + offset)]
                redis.call('EVALSHA', shas['acknowledge'], 2, key('outbox'), key('reservations'), *args)
                first += len(chunk)

        def settle(ids=None):
            ids = life['ids'] if ids is None else ids
            for first in range(0, len(ids), SETTLE_BATCH):
                chunk = ids[first:first + SETTLE_BATCH]
                redis.call('EVALSHA', shas['settle_batch'], 4, key('stock'), key('holdings'), key('reservations'),
                           key('inflight'), len(chunk), *chunk)

        # A first round, not counted, takes the sale's hashes past Redis's small-hash encoding (listpack, up to
        # hash-max-listpack-entries, whose lookups scan) and leaves half of it in flight, as a sale under load has
        # reservations between their answer and their order: the records and the in-flight index stay large.
        reserve(WARM_ROUND, 'w')
        relay()
        acknowledge()
        in_flight = life['ids'][WARM_ROUND // 2:]
        settle(life['ids'][:WARM_ROUND // 2])
        life['ids'], life['entries'] = [], []
        figures = [('reserve', server.measure(lambda: reserve(reservations, 'm')))]
        figures += [(name, server.measure(phase)) for name, phase in
                    (('relay', relay), ('acknowledge', acknowledge), ('settle', settle))]
        settle(in_flight)
        left = redis.call('HLEN', key('reservations'))
        if len(life['entries']) != reservations or left != 0:
            sys.exit('the life did not run through: %d relayed, %d records left' % (len(life['entries']), left))
        # The request index's buckets (ADR 0100) beside its single hash: every key the sale holds counts.
        buckets = int(redis.call('HGET', key('meta'), 'requestBuckets') or 0)
        memory = sum(redis.call('MEMORY', 'USAGE', name, 'SAMPLES', '0') or 0 for name in
                     [key(part) for part in ('holdings', 'reservations', 'requests', 'inflight', 'keys', 'outbox')]
                     + [key('requests:%d' % k) for k in range(1, buckets + 1)])
        encodings = {}
        for k in range(1, buckets + 1):
            encoding = redis.call('OBJECT', 'ENCODING', key('requests:%d' % k))
            encodings[encoding] = encodings.get(encoding, 0) + 1
    finally:
        server.stop()
    whole = sum(count for _, count in figures)
    print('%s: %d reservations in reserve calls of %d' % (lua, reservations, size))
    print('instructions per reservation: ' + ', '.join('%s %.0f' % (name, count / reservations)
                                                        for name, count in figures)
          + ', whole life %.0f' % (whole / reservations))
    print('bytes per settled reservation (holdings, requests, filter, records, in-flight, outbox): %.0f'
          % (memory / (reservations + WARM_ROUND)))
    if buckets:
        print('request index: %d buckets, encodings %s' % (buckets, encodings))
    print('callgrind dumps, one per phase in the order above: ' + server.dir)


if __name__ == '__main__':
    main()
