import { parseAddresses, pickReplica, REPLICA_BACKOFF_MS, replicaBackoffMs, ReplicaLoad } from './balancing';

const up = (outstanding = 0): ReplicaLoad => ({ outstanding, downUntil: 0 });
const down = (until: number): ReplicaLoad => ({ outstanding: 0, downUntil: until });
const NOW = 10_000;

describe('parseAddresses', () => {
  it('reads one address, a list, names and bracketed IPv6', () => {
    expect(parseAddresses('127.0.0.1:4005')).toEqual([{ host: '127.0.0.1', port: 4005, resolved: false }]);
    expect(parseAddresses(' 10.0.0.7:4005, limits-service:4005 ,[::1]:4015')).toEqual([
      { host: '10.0.0.7', port: 4005, resolved: false },
      { host: 'limits-service', port: 4005, resolved: true },
      { host: '::1', port: 4015, resolved: false },
    ]);
  });

  it.each(['', ',', 'limits-service', ':4005', 'limits-service:', 'limits-service:0', 'limits-service:70000', 'limits-service:40x5'])(
    'refuses "%s"',
    (setting) => {
      expect(() => parseAddresses(setting)).toThrow();
    },
  );
});

describe('pickReplica', () => {
  it('takes the replica with the fewest requests outstanding', () => {
    expect(pickReplica([up(3), up(1), up(2)], NOW, 0)).toBe(1);
    expect(pickReplica([up(0), up(1), up(2)], NOW, 1)).toBe(0);
  });

  it('breaks ties round robin from the cursor, so that idle replicas take turns', () => {
    const replicas = [up(), up(), up()];
    const chosen: number[] = [];
    let cursor = 0;
    for (let request = 0; request < 6; request++) {
      const index = pickReplica(replicas, NOW, cursor);
      chosen.push(index);
      cursor = (index + 1) % replicas.length;
    }
    expect(chosen).toEqual([0, 1, 2, 0, 1, 2]);
    expect(pickReplica([up(1), up(0), up(1), up(0)], NOW, 2)).toBe(3);
  });

  it('leaves out a replica in its backoff, and takes it again once the backoff has passed', () => {
    expect(pickReplica([down(NOW + 1), up(5)], NOW, 0)).toBe(1);
    expect(pickReplica([down(NOW), up(5)], NOW, 0)).toBe(0);
  });

  it('leaves out the replicas this request already tried', () => {
    const three = [up(), up(), up()];
    expect(pickReplica(three, NOW, 0, new Set([three[0]]))).toBe(1);
    const two = [up(), up()];
    expect(pickReplica(two, NOW, 0, new Set(two))).toBe(-1);
    expect(pickReplica([], NOW, 0)).toBe(-1);
  });

  it('knows a tried replica by itself, wherever a new resolution of the name moved it in the list', () => {
    const [a, b, c] = [up(), up(), up()];
    expect(pickReplica([c, a, b], NOW, 0, new Set([a]))).toBe(0);
    expect(pickReplica([b, c, a], NOW, 2, new Set([a]))).toBe(0);
  });

  it('tries the replica whose backoff ends first when every one is down, rather than refusing untried', () => {
    expect(pickReplica([down(NOW + 300), down(NOW + 100), down(NOW + 200)], NOW, 0)).toBe(1);
    const bothDown = [down(NOW + 300), down(NOW + 100)];
    expect(pickReplica(bothDown, NOW, 0, new Set([bothDown[1]]))).toBe(0);
    const oneUp = [down(NOW + 300), up(9)];
    expect(pickReplica(oneUp, NOW, 0, new Set([oneUp[1]]))).toBe(0);
  });
});

describe('replicaBackoffMs', () => {
  it('doubles from the first failure on, up to its bound', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(replicaBackoffMs)).toEqual([250, 500, 1000, 2000, 4000, REPLICA_BACKOFF_MS.max, REPLICA_BACKOFF_MS.max]);
  });
});
