import Ajv from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { Topics } from '@pixauto/contracts';
import { DATABASE_POOL_SHARES, PAYOUT_EXPORT_POOL_SHARE, shutdownDeadlineMs } from '@pixauto/runtime';

// This machine has no Docker and no cluster: docker-compose.yml and deploy/k8s/ are checked against their schemas
// (the Compose Specification's, vendored from compose-spec/compose-spec schema/compose-spec.json at 170098ba; the
// Kubernetes OpenAPI schemas that kubernetes-models compiles) and against the code: the apps system.cjs runs, the
// ports they listen on, the environment variables they read.

const ROOT = path.resolve(__dirname, '..', '..');
const K8S = path.join(ROOT, 'deploy', 'k8s');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const { appsOf } = require(path.join(ROOT, 'deploy', 'scripts', 'system.cjs')) as {
  appsOf: (profile: string, adminToken: string) => { name: string; env: Record<string, string> }[];
};

/** What npm start runs (profile dev, the ports docs/architecture.md documents): the code's own list of apps. */
const CODE_APPS = new Map(appsOf('dev', 'token').map((app) => [app.name, app.env]));
/** Servers the apps use, described beside them in compose, outside the k8s manifests. */
const INFRASTRUCTURE = ['postgres', 'redis', 'kafka'];
/** Read by dependencies, not by our code. */
const READ_BY_DEPENDENCIES: Record<string, string> = { NODE_ENV: 'the Node convention for production builds', KAFKAJS_NO_PARTITIONER_WARNING: 'kafkajs' };

/** Every environment variable the apps and libs read (env.NAME, process.env.NAME), from their sources. */
function variablesReadByCode(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(match[1]);
      }
    }
  };
  for (const top of ['apps', 'libs'])
    for (const project of fs.readdirSync(path.join(ROOT, top)))
      if (fs.existsSync(path.join(ROOT, top, project, 'src'))) visit(path.join(ROOT, top, project, 'src'));
  return names;
}

/** The ports an app listens on in the dev profile: every *PORT setting system.cjs gives it. */
const portsOf = (app: string): number[] =>
  Object.entries(CODE_APPS.get(app) ?? {})
    .filter(([name]) => name.endsWith('PORT'))
    .map(([, value]) => Number(value));

/** host:port or http://host:port naming one of our apps: the app and the port. */
function addressOf(value: string): { app: string; port: number } | undefined {
  const match = /^(?:https?:\/\/)?([a-z-]+):(\d+)(?:\/.*)?$/.exec(value);
  return match && CODE_APPS.has(match[1]) ? { app: match[1], port: Number(match[2]) } : undefined;
}

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [field: string]: unknown };

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

const manifests: Manifest[] = fs
  .readdirSync(K8S)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(fs.readFileSync(path.join(K8S, file), 'utf8')).map((document) => document.toJS() as Manifest));
const ofKind = <T>(kind: string) => manifests.filter((manifest) => manifest.kind === kind) as unknown as (Manifest & T)[];

interface Container {
  name: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef: { name: string } }[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  resources: { requests: object; limits: object };
}
type DeploymentManifest = { spec: { replicas?: number; template: { spec: { terminationGracePeriodSeconds: number; containers: Container[] } } } };
type ServiceManifest = { spec: { selector: Record<string, string>; ports: { port: number; targetPort: string }[] } };
const deployments = ofKind<DeploymentManifest>('Deployment');
const containerOf = (app: string): Container => deployments.find((deployment) => deployment.metadata.name === app)!.spec.template.spec.containers[0];
const config = ofKind<{ data: Record<string, string> }>('ConfigMap')[0];

interface ComposeService {
  environment?: Record<string, string>;
  stop_grace_period?: string;
  expose?: string[];
  ports?: string[];
}
const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const composeApps = Object.keys(compose.services).filter((name) => !INFRASTRUCTURE.includes(name));

describe('deploy/Dockerfile', () => {
  it("builds and runs on the Node major version package.json's engines names", () => {
    const major = /\d+/.exec(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node)![0];
    const bases = [...fs.readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8').matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(bases).toEqual([`node:${major}-slim`, `node:${major}-slim`]);
  });
});

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy', 'schemas', 'compose-spec.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    // The schema names draft-07 by its https address; Ajv knows that meta-schema by its http one.
    ajv.addMetaSchema({ ...draft07, $id: schema.$schema });
    const validate = ajv.compile(schema);
    // As Compose reads it: anchors and `<<` merges resolved.
    validate(compose);
    expect(validate.errors ?? []).toEqual([]);
  });

  it('runs every app of the code, and only those', () => {
    expect(composeApps.sort()).toEqual([...CODE_APPS.keys()].sort());
  });

  it.each(composeApps)('%s: its ports are those it listens on, its variables are read by the code, its addresses name apps and their ports', (app) => {
    const service = compose.services[app];
    const read = variablesReadByCode();
    for (const name of Object.keys(service.environment ?? {}))
      expect({ name, known: read.has(name) || name in READ_BY_DEPENDENCIES }).toEqual({ name, known: true });
    for (const [name, value] of Object.entries(service.environment ?? {})) {
      if (name.endsWith('PORT')) expect({ name, port: Number(value) }).toEqual({ name, port: Number(CODE_APPS.get(app)![name]) });
      const address = addressOf(String(value));
      if (address) expect({ name, value, listens: portsOf(address.app).includes(address.port) }).toEqual({ name, value, listens: true });
    }
    for (const port of [...(service.expose ?? []), ...(service.ports ?? []).map((mapping) => mapping.split(':').pop()!)])
      expect(portsOf(app)).toContain(Number(port));
    // Compose kills an app only past its own deadline (GracefulShutdown, with the default SHUTDOWN_DELAY_MS).
    expect(Number(/^(\d+)s$/.exec(service.stop_grace_period ?? '')?.[1]) * 1000).toBeGreaterThan(
      shutdownDeadlineMs(Number(service.environment?.SHUTDOWN_DELAY_MS ?? 1000)),
    );
  });
});

describe('deploy/k8s', () => {
  it.each(manifests.map((manifest) => [`${manifest.kind} ${manifest.metadata.name}`, manifest] as const))(
    '%s is valid against the Kubernetes schema',
    (_name, manifest) => {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      expect(Model).toBeDefined();
      expect(() => new Model(manifest as never).validate()).not.toThrow();
    },
  );

  it('has a Deployment and a Service for every app of the code, and only those', () => {
    const apps = [...CODE_APPS.keys()].sort();
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(apps);
    expect(
      ofKind('Service')
        .map((service) => service.metadata.name)
        .sort(),
    ).toEqual(apps);
  });

  it('scales the gateway and the services on CPU, and pins the bank simulator to one replica', () => {
    const scaled = ofKind<{ spec: { scaleTargetRef: { kind: string; name: string } } }>('HorizontalPodAutoscaler').map(
      (hpa) => `${hpa.spec.scaleTargetRef.kind}/${hpa.spec.scaleTargetRef.name}`,
    );
    expect(scaled.sort()).toEqual(
      [...CODE_APPS.keys()]
        .filter((app) => app !== 'bank-simulator')
        .map((app) => `Deployment/${app}`)
        .sort(),
    );
    expect(deployments.find((deployment) => deployment.metadata.name === 'bank-simulator')!.spec.replicas).toBe(1);
  });

  it('gives every shared topic a partition for each replica an autoscaler allows, so every replica of a consumer group gets some', () => {
    const most = Math.max(...ofKind<{ spec: { maxReplicas: number } }>('HorizontalPodAutoscaler').map((hpa) => hpa.spec.maxReplicas));
    // The sandbox clock's topic is read whole by every instance (a consumer group of its own each): one partition.
    const shared = Object.values(Topics).filter((topic) => topic.name !== Topics.sandboxClock.name);
    expect(shared.filter((topic) => topic.partitions < most).map((topic) => `${topic.name}: ${topic.partitions} < ${most}`)).toEqual([]);
  });

  it("adds up the database pools at the autoscalers' maxima as docs/operations.md tells the operator to allow for", () => {
    // payout-query-service's CSV exports have a pool of their own beside its share.
    const exportPoolOf = (app: string) => (app === 'payout-query-service' ? PAYOUT_EXPORT_POOL_SHARE : 0);
    const most = new Map(
      ofKind<{ spec: { maxReplicas: number; scaleTargetRef: { name: string } } }>('HorizontalPodAutoscaler').map((hpa) => [
        hpa.spec.scaleTargetRef.name,
        hpa.spec.maxReplicas,
      ]),
    );
    // The console server keeps its sessions in Redis and has no database.
    const pools = [...CODE_APPS.keys()]
      .filter((app) => app !== 'console-server')
      .reduce((sum, app) => sum + (most.get(app) ?? 1) * (DATABASE_POOL_SHARES[app === 'api-gateway' ? 'gateway' : app] + exportPoolOf(app)), 0);
    const operations = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    expect(Number(/At the HPAs' maximum the pools add up to (\d+)/.exec(operations)?.[1])).toBe(pools);
  });

  it.each([...CODE_APPS.keys()])('%s: probes, resources, grace period, ports the app listens on, variables the code reads', (app) => {
    const deployment = deployments.find((candidate) => candidate.metadata.name === app)!;
    const container = containerOf(app);
    const portNames = container.ports.map((port) => port.name);
    // Probes on the ops listener (the bank simulator's /health on its one port).
    const probes = app === 'bank-simulator' ? ['/health', '/health'] : ['/health/live', '/health/ready'];
    expect([container.livenessProbe.httpGet.path, container.readinessProbe.httpGet.path]).toEqual(probes);
    expect(portNames).toContain(container.readinessProbe.httpGet.port);
    if (app !== 'bank-simulator') expect(container.ports.find((port) => port.name === 'ops')!.containerPort).toBe(Number(CODE_APPS.get(app)!.OPS_PORT));
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits).toBeDefined();
    // Above the process's own deadline with the ConfigMap's delay (GracefulShutdown), so SIGKILL only ever follows a hang.
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownDeadlineMs(Number(config.data.SHUTDOWN_DELAY_MS)));
    expect(container.ports.map((port) => port.containerPort).sort()).toEqual(portsOf(app).sort());
    const read = variablesReadByCode();
    for (const variable of container.env ?? []) {
      expect({ name: variable.name, known: read.has(variable.name) }).toEqual({ name: variable.name, known: true });
      if (variable.name.endsWith('PORT'))
        expect({ name: variable.name, value: variable.value }).toEqual({ name: variable.name, value: CODE_APPS.get(app)![variable.name] });
      if (variable.valueFrom) expect(variable.valueFrom.secretKeyRef?.name).toBe('pixauto-secrets');
    }
    expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
    // Its Service selects it and exposes each of its ports by name.
    const service = ofKind<ServiceManifest>('Service').find((candidate) => candidate.metadata.name === app)!;
    expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': app });
    expect(service.spec.ports.map((port) => port.targetPort).sort()).toEqual(portNames.sort());
  });

  it('keeps secrets out of the ConfigMap, and reads each setting of it in the code, addresses naming apps and their ports', () => {
    const read = variablesReadByCode();
    for (const [name, value] of Object.entries(config.data)) {
      expect({ name, known: read.has(name) || name in READ_BY_DEPENDENCIES }).toEqual({ name, known: true });
      expect(['DATABASE_URL', 'ADMIN_TOKEN', 'SECRETS_KEYS', 'DOCUMENT_KEY']).not.toContain(name);
      const address = addressOf(value);
      if (address) {
        const exposed = ofKind<ServiceManifest>('Service')
          .find((service) => service.metadata.name === address.app)!
          .spec.ports.map((port) => port.port);
        expect({ name, value, exposed: exposed.includes(address.port) }).toEqual({ name, value, exposed: true });
      }
    }
  });

  it('passes each secret by reference: the database URL to every app with a database, the keys to those that use them', () => {
    const secretsOf = (app: string) =>
      (containerOf(app).env ?? [])
        .filter((variable) => variable.valueFrom)
        .map((variable) => variable.name)
        .sort();
    expect(Object.fromEntries([...CODE_APPS.keys()].map((app) => [app, secretsOf(app)]))).toEqual({
      'api-gateway': ['ADMIN_TOKEN', 'DATABASE_URL', 'SECRETS_KEYS'],
      'bank-simulator': ['DATABASE_URL'],
      'console-server': ['ADMIN_TOKEN', 'SECRETS_KEYS'],
      'limits-service': ['DATABASE_URL', 'DOCUMENT_KEY'],
      'payments-service': ['DATABASE_URL'],
      'payout-query-service': ['DATABASE_URL'],
      'receipt-service': ['DATABASE_URL', 'SECRETS_KEYS'],
      'recurrence-service': ['DATABASE_URL'],
      'solicitation-service': ['DATABASE_URL'],
      'webhook-dispatcher': ['DATABASE_URL', 'SECRETS_KEYS'],
    });
  });
});
